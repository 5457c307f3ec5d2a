// What the console's browser tests share: a loopback webhook receiver, the API as a client calls it,
// axe-core in the page, and the locators of the console's test hooks (docs/console.md).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_CREDENTIALS } from '../../src/seed/demo.ts';
import type { ResponseBody } from './server.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: records every POST, answers `answerWith` (200 unless told). */
export async function startReceiver() {
  const received: Received[] = [];
  let answer: { status: number; type?: string; body?: string } = { status: 200 };
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answer.status, answer.type ? { 'content-type': answer.type } : {}).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** What it answers from now on: a status, and a body of a content type when given. */
    answerWith(status: number, reply: { type: string; body: string } | null = null) {
      answer = { status, ...reply };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The v2 API (or, with a path starting `/api/v1` or `/_control`, that one) as a client calls it. */
export function apiOf(origin: () => string) {
  return async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => {
    const url = path.startsWith('/api/v1') || path.startsWith('/_control') ? path : `/v2${path}`;
    const response = await fetch(`${origin()}${url}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.key ?? DEMO_CREDENTIALS.v2Secret}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as ResponseBody };
  };
}

/** A v1 session token for the demo user's legacy key, as a v1 client (a Zap) gets one. */
export async function demoV1Token(origin: string): Promise<string> {
  const query = new URLSearchParams({
    email: DEMO_CREDENTIALS.email,
    api_key: DEMO_CREDENTIALS.legacyApiKey,
    api_secret: DEMO_CREDENTIALS.legacyApiSecret,
    api_key_name: DEMO_CREDENTIALS.legacyKeyName,
  });
  const response = await fetch(`${origin}/auth/api_token?${query}`, { method: 'POST' });
  return ((await response.json()) as Record<string, string>)['x-access-token']!;
}

/** No serious or critical axe-core violation on the page as it stands. */
export async function expectAccessible(target: Page, what: string) {
  // Evaluated, not added as a script tag: the console's Content-Security-Policy refuses inline scripts.
  await target.evaluate(AXE);
  const violations = await target.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
  expect(violations, what).toEqual([]);
}

/** The console's test hooks on a page. */
export function hooks(page: () => Page) {
  const list = (listId: string) => page().locator(`[data-testid="console-list"][data-list-id="${listId}"]`);
  const card = (taskId: string) => page().locator(`[data-testid="console-task"][data-task-id="${taskId}"]`);
  const cardIds = (listId: string) =>
    list(listId)
      .locator('[data-testid="console-task"]')
      .evaluateAll((cards) => cards.map((element) => element.getAttribute('data-task-id')));
  return { list, card, cardIds };
}

/** What the header's dot says ("Live", "Reconnecting…", "Catching up…"). */
export const liveText = (page: Page) => page.locator('header .live').textContent();

/** Polls `read` until it answers something (not undefined, null or false), and answers that. */
export async function eventually<T>(
  read: () => T | undefined | null | Promise<T | undefined | null>,
  timeout = 5000,
) {
  let value: T | undefined | null;
  await expect
    .poll(
      async () => {
        value = await read();
        return value !== undefined && value !== null && (value as unknown) !== false;
      },
      { timeout },
    )
    .toBe(true);
  return value as T;
}
