// The console in a real Chromium (playwright-core, the machine's browser), against an in-process server
// with the demo workspace, driven by its test hooks (docs/console.md). Each page and each action, with
// what the service holds afterwards read back through the API; live updates; axe-core; screenshots in
// light and dark, wide and narrow, written to test/screenshots/ (not committed) for a look.
import { mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, CHROMIUM } from '../../../extension/test/helpers/browser.ts';
import { DEMO_CREDENTIALS } from '../src/seed/demo.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { freshDatabase } from './helpers/database.ts';
import { offlineResolver, type ResponseBody } from './helpers/server.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const THREAD = '18c2f0a1b2c3d4e5';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: records every POST, answers `status()` (200 unless told). */
async function startReceiver() {
  const received: Received[] = [];
  let answer = 200;
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answerWith(status: number) {
      answer = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let browser: Browser;
let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let page: Page;

async function api(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const response = await fetch(`${server.origin}/v2${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.key ?? DEMO_CREDENTIALS.v2Secret}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as ResponseBody };
}

async function tasksOf(
  listId: string,
): Promise<{ id: string; title: string; completed: boolean; shade: string }[]> {
  return (await api(`/tasks?list_id=${listId}&limit=200`)).body.data;
}

/** No serious or critical axe-core violation on the page as it stands. */
async function expectAccessible(target: Page, what: string) {
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

beforeAll(async () => {
  if (!BROWSER_TESTS) return;
  mkdirSync(SHOTS, { recursive: true });
  receiver = await startReceiver();
  server = await startServer({
    port: 0,
    ...(await freshDatabase(undefined)),
    demo: true,
    console: true,
    testControl: true,
    allowInsecureWebhooks: true,
    webhookTimeScale: 0.001,
    resolveHost: offlineResolver,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  // The first console request builds the browser bundle when its sources changed: not a test's time.
  await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

beforeEach(async () => {
  if (!BROWSER_TESTS) return;
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // A step that cannot happen fails with its own message rather than the test's time-out.
  page.setDefaultTimeout(4000);
  page.on('pageerror', (error) => {
    throw error;
  });
});

const list = (listId: string) => page.locator(`[data-testid="console-list"][data-list-id="${listId}"]`);
const card = (taskId: string) => page.locator(`[data-testid="console-task"][data-task-id="${taskId}"]`);
const cardIds = (listId: string) =>
  list(listId)
    .locator('[data-testid="console-task"]')
    .evaluateAll((cards) => cards.map((element) => element.getAttribute('data-task-id')));

// A shared machine may be slow: each test may take a while, while each of its steps fails in 4 s.
describe.runIf(BROWSER_TESTS)('the console in Chromium', { timeout: 20_000 }, () => {
  it('lists the teams with their subscription and their boards, and opens a board', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('h2').first().textContent()).toBe('Northwind Studio');
    await expect.poll(() => page.locator('.subscription').first().textContent()).toContain('pro, active');
    await page.locator('[data-testid="console-board"][data-board-id="brd_product"]').click();
    await page.locator('section[data-testid="console-board"][data-board-id="brd_product"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/boards/brd_product');
    await expectAccessible(page, 'overview → board');
  });

  it('shows every list as a column and its cards in the list’s position order, with their card fields', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    for (const listId of ['lst_backlog', 'lst_doing', 'lst_review', 'lst_done']) {
      await expect.poll(() => cardIds(listId)).toEqual((await tasksOf(listId)).map((task) => task.id));
    }
    const linked = card('tsk_demo_p07');
    await expect.poll(() => linked.textContent()).toContain('Threads1');
    await expect.poll(() => linked.textContent()).toContain('AssigneeGrace Hopper');
    await expect.poll(() => card('tsk_demo_p01').textContent()).toContain('PriorityHigh');
    await expectAccessible(page, 'board');
  });

  it('adds a task with Enter in a list, through the domain: the API has it and its webhook and v1 hook fire', async () => {
    const subscription = await api('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: receiver.url, events: ['task.created', 'task.completed', 'task.moved'] },
    });
    expect(subscription.status).toBe(200);
    await page.goto(`${server.origin}/boards/brd_product`);
    const input = list('lst_review').getByTestId('console-new-task');
    await input.fill('Write the console docs');
    await input.press('Enter');
    await expect
      .poll(async () => (await tasksOf('lst_review')).map((task) => task.title))
      .toContain('Write the console docs');
    const created = (await tasksOf('lst_review')).find((task) => task.title === 'Write the console docs')!;
    await card(created.id).waitFor();
    await expect
      .poll(() => cardIds('lst_review'))
      .toEqual((await tasksOf('lst_review')).map((task) => task.id));
    await expect
      .poll(() =>
        receiver.received
          .map((hit) => JSON.parse(hit.body))
          .filter((body) => body.data?.task?.id === created.id),
      )
      .toHaveLength(1);
    const hit = receiver.received.find((entry) => entry.body.includes(created.id))!;
    expect(JSON.parse(hit.body).type).toBe('task.created');
    expect(hit.headers['x-service-signature']).toMatch(/v1=/);
    await expect.poll(() => input.inputValue()).toBe('');
  });

  it('completes a task from its card', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await card('tsk_demo_p08').getByRole('checkbox').check();
    await expect.poll(async () => (await api('/tasks/tsk_demo_p08')).body.data.completed).toBe(true);
    await expect.poll(() => card('tsk_demo_p08').getAttribute('data-completed')).toBe('true');
  });

  it('moves and reorders with the keyboard: arrow keys on a card’s handle', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await card('tsk_demo_p02').locator('[data-move-handle]').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await api('/tasks/tsk_demo_p02')).body.data.list_id).toBe('lst_doing');
    await expect.poll(() => cardIds('lst_doing')).toContain('tsk_demo_p02');
    // Focus follows the card into its new list, so a second key press moves it on.
    await expect
      .poll(() =>
        page.evaluate(() =>
          (
            globalThis as unknown as {
              document: {
                activeElement: {
                  closest(s: string): { getAttribute(a: string): string | null } | null;
                } | null;
              };
            }
          ).document.activeElement
            ?.closest('[data-task-id]')
            ?.getAttribute('data-task-id'),
        ),
      )
      .toBe('tsk_demo_p02');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(async () => (await tasksOf('lst_doing')).map((task) => task.id).indexOf('tsk_demo_p02'))
      .toBe(1);
    await expect
      .poll(() => cardIds('lst_doing'))
      .toEqual((await tasksOf('lst_doing')).map((task) => task.id));
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await tasksOf('lst_doing'))[0]?.id).toBe('tsk_demo_p02');
  });

  it('moves a card to another list by drag and drop, where it is dropped', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const target = (await tasksOf('lst_review'))[0]!;
    await card('tsk_demo_p04').dragTo(card(target.id), { targetPosition: { x: 40, y: 50 } });
    await expect.poll(async () => (await api('/tasks/tsk_demo_p04')).body.data.list_id).toBe('lst_review');
    const order = (await tasksOf('lst_review')).map((task) => task.id);
    expect(order.indexOf('tsk_demo_p04')).toBe(order.indexOf(target.id) + 1);
    await expect.poll(() => cardIds('lst_review')).toEqual(order);
  });

  it('changes a task’s shade', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const target = card('tsk_demo_p03');
    await target.locator('summary').click();
    await target.getByLabel('Shade').selectOption('teal');
    await expect.poll(async () => (await api('/tasks/tsk_demo_p03')).body.data.shade).toBe('teal');
    await expect.poll(() => target.getAttribute('class')).toContain('shade-teal');
  });

  it('shows a task created through the API on an open board page within a second, without polling', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await list('lst_backlog').waitFor();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.waitForTimeout(300);
    expect(requests).toEqual([]); // nothing is polled while nothing changes
    const started = Date.now();
    const created = await api('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_backlog', title: 'Made by the API' },
    });
    await card(created.body.data.id).waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await expect
      .poll(() => cardIds('lst_backlog'))
      .toEqual((await tasksOf('lst_backlog')).map((task) => task.id));
  });

  it('follows boards and lists made through the API: a new list on an open board, a new board on /', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await list('lst_backlog').waitFor();
    const made = await api('/boards/brd_product/lists', { method: 'POST', body: { name: 'Shipped' } });
    await list(made.body.data.id).waitFor({ timeout: 1000 });
    await page.goto(`${server.origin}/`);
    await page.locator('[data-board-id="brd_product"]').waitFor();
    const board = await api('/boards', {
      method: 'POST',
      body: { team_id: 'team_northwind', name: 'Launch plan' },
    });
    await page
      .locator(`[data-testid="console-board"][data-board-id="${board.body.data.id}"]`)
      .waitFor({ timeout: 1000 });
  });

  it('shows a task page: every field, custom values by label, linked threads, events in order', async () => {
    await api('/tasks/tsk_demo_p07/complete', { method: 'POST' });
    await page.goto(`${server.origin}/tasks/tsk_demo_p07`);
    await expect
      .poll(() => page.getByTestId('console-task-title').textContent())
      .toBe('Reply to Stone Ltd about the export bug');
    const fields = page.locator('dl.fields').first();
    await expect.poll(() => fields.textContent()).toContain('CompletedYes');
    await expect.poll(() => fields.textContent()).toContain('ListIn progress');
    await expect.poll(() => page.locator('dl.fields').nth(1).textContent()).toContain('PriorityLow');
    const thread = page.locator(`a[href="/mail/${THREAD}"]`);
    await expect.poll(() => thread.textContent()).toBe('Export to CSV drops the last row');
    await expect
      .poll(() => page.locator('ol.events li').allTextContents())
      .toEqual([expect.stringContaining('task.completed')]);
    await expectAccessible(page, 'task page');
    await thread.click();
    await page.locator(`h2[data-legacy-thread-id="${THREAD}"]`).waitFor();
  });

  it('lists threads with labels and unread state, and shows a thread as text with its linked tasks', async () => {
    await page.goto(`${server.origin}/mail`);
    const row = page.locator(`[data-testid="console-thread"][data-thread-id="${THREAD}"]`);
    await expect.poll(() => row.getAttribute('class')).toBe('unread');
    await expect.poll(() => row.textContent()).toContain('Inbox');
    await expectAccessible(page, 'mail');
    await row.locator('a').click();
    const heading = page.locator(`h2[data-legacy-thread-id="${THREAD}"]`);
    await expect.poll(() => heading.textContent()).toBe('Export to CSV drops the last row');
    expect(await page.locator('[gh="tm"] [gh="mtb"]').count()).toBe(1);
    await expect.poll(() => page.locator(`a[href="/tasks/tsk_demo_p07"]`).count()).toBe(1);
    await expectAccessible(page, 'thread');
  });

  it('never renders mail HTML: an HTML-only message and markup in a text body stay text', async () => {
    const arrived = await fetch(`${server.origin}/_control/inbound-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mailbox: DEMO_CREDENTIALS.email,
        message: {
          from: { email: 'mallory@evil.test', name: 'Mallory' },
          subject: 'Markup <b>inside</b>',
          body_text: '<img id="evil-text" src="x" onerror="window.pwned=1"> is text here',
          body_html: '<b id="evil-html">bold</b><img id="evil-img" src="x" onerror="window.pwned=1">',
        },
      }),
    });
    const { thread_id } = (await arrived.json()) as { thread_id: string };
    await page.goto(`${server.origin}/mail/${thread_id}`);
    await expect
      .poll(() => page.locator('.messages .text').first().textContent())
      .toBe('<img id="evil-text" src="x" onerror="window.pwned=1"> is text here');
    expect(await page.locator('#evil-text, #evil-html, #evil-img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('h2[data-legacy-thread-id]').textContent()).toBe('Markup <b>inside</b>');
    // The console's API never even sends the HTML body.
    const token = await page.locator('meta[name="console-token"]').getAttribute('content');
    const view = await fetch(`${server.origin}/_console/api/mail/${thread_id}`, {
      headers: { 'x-console-token': token ?? '' },
    });
    expect(view.status).toBe(200);
    const text = await view.text();
    expect(text).toContain('Markup <b>inside</b>');
    expect(text).not.toContain('evil-html');
  });

  it('simulates a reply on a thread page: the message arrives, and thread.reply_received is delivered', async () => {
    await api('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: receiver.url, events: ['thread.reply_received'] },
    });
    const before = (await api(`/email-threads/${THREAD}`)).body.data.message_ids.length;
    await page.goto(`${server.origin}/mail/${THREAD}`);
    await page.getByLabel('Reply text').fill('Friday works, thanks!');
    await page.getByTestId('console-inbound').click();
    await expect
      .poll(async () => (await api(`/email-threads/${THREAD}`)).body.data.message_ids.length)
      .toBe(before + 1);
    await expect
      .poll(() => page.locator('.messages li').last().textContent())
      .toContain('Friday works, thanks!');
    await expect.poll(() => page.locator('.messages li').last().textContent()).toContain('Bob Stone');
    await expect
      .poll(
        () => receiver.received.filter((hit) => JSON.parse(hit.body).type === 'thread.reply_received').length,
      )
      .toBe(1);
  });

  it('shows a delivery as it happens, with attempts, signature and body, and replays it', async () => {
    receiver.answerWith(500);
    await page.goto(`${server.origin}/deliveries`);
    await page.locator('h1').waitFor();
    const created = await api('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_backlog', title: 'Watch my delivery' },
    });
    const taskId = created.body.data.id as string;
    // Live: the page was open before the task existed, and is never reloaded.
    const deliveries = page.getByTestId('console-delivery');
    const mine = deliveries.filter({ hasText: 'task.created' }).first();
    await expect.poll(() => mine.getAttribute('data-status'), { timeout: 5000 }).toBe('pending');
    await expect.poll(() => mine.locator('table.attempts tbody tr').count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => mine.locator('table.attempts').textContent()).toContain('500');
    const deliveryId = (await mine.getAttribute('data-delivery-id'))!;
    const hit = receiver.received.find((entry) => entry.headers['x-service-delivery-id'] === deliveryId)!;
    expect(hit.body).toContain(taskId);
    await mine.locator('summary').click();
    await expect
      .poll(() => mine.locator('pre').first().textContent())
      .toContain(`x-service-delivery-id: ${deliveryId}`);
    // The signature shown is the one sent at the delivery's last logged attempt (retries re-sign).
    const shown = /x-service-signature: (\S+)/.exec(
      (await mine.locator('pre').first().textContent()) ?? '',
    )?.[1];
    const sent = receiver.received
      .filter((entry) => entry.headers['x-service-delivery-id'] === deliveryId)
      .map((entry) => entry.headers['x-service-signature']);
    expect(sent).toContain(shown);
    expect(await mine.locator('pre').nth(1).textContent()).toContain(taskId);
    await expectAccessible(page, 'deliveries');

    receiver.answerWith(200);
    await mine.getByTestId('console-replay').click();
    await expect
      .poll(
        () =>
          receiver.received.filter(
            (entry) => entry.headers['x-service-delivery-id'] !== deliveryId && entry.body.includes(taskId),
          ).length,
      )
      .toBeGreaterThanOrEqual(1);
    const replay = receiver.received.find(
      (entry) => entry.body.includes(taskId) && entry.headers['x-service-delivery-id'] !== deliveryId,
    )!;
    expect(replay.headers['x-service-event-id']).toBe(hit.headers['x-service-event-id']);
    const replayed = page.locator(
      `[data-testid="console-delivery"][data-delivery-id="${replay.headers['x-service-delivery-id']}"]`,
    );
    await expect.poll(() => replayed.getAttribute('data-status')).toBe('delivered');
  });

  it('takes a newcomer from a new task to a delivered delivery and its replay, through the built-in test receiver', async () => {
    // As README's main job has it: no receiver of one's own, only the console (pnpm start's flags).
    await page.goto(`${server.origin}/deliveries`);
    await page.getByTestId('console-receiver-subscribe').click();
    const block = page.locator('section.subscription-block').filter({ hasText: '/_console/receiver' });
    await block.waitFor();
    await expect.poll(() => page.getByTestId('console-receiver-subscribe').count()).toBe(0);
    const subscriptions = (await api('/webhooks/subscriptions')).body.data as {
      id: string;
      target_url: string;
      events: string[];
    }[];
    const subscription = subscriptions.find((entry) => entry.target_url.endsWith('/_console/receiver'))!;
    expect(subscription.target_url).toBe(`${server.origin}/_console/receiver`);
    expect(subscription.events).toContain('task.created');

    // Create a task on the board, as a person does: Enter in a list's title box.
    await page.getByRole('link', { name: 'Boards' }).click();
    await page.locator('[data-testid="console-board"][data-board-id="brd_product"]').click();
    const input = list('lst_backlog').getByTestId('console-new-task');
    await input.fill('My first delivered task');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('console-task').filter({ hasText: 'My first delivered task' }).count())
      .toBe(1);
    const taskId = (await page
      .getByTestId('console-task')
      .filter({ hasText: 'My first delivered task' })
      .getAttribute('data-task-id'))!;

    // The deliveries page: the task's delivery, delivered to the receiver, whose signature check passed.
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const first = block.getByTestId('console-delivery').filter({ hasText: taskId }).first();
    await first.locator('summary').click({ timeout: 5000 });
    // Pinned by its id: the replay below adds another delivery carrying the same task.
    const deliveryId = (await first.getAttribute('data-delivery-id'))!;
    const mine = block.locator(`[data-testid="console-delivery"][data-delivery-id="${deliveryId}"]`);
    await expect.poll(() => mine.getAttribute('data-status'), { timeout: 5000 }).toBe('delivered');
    expect(await mine.locator('table.attempts').textContent()).toContain('204');
    const took = page.getByTestId('console-received').filter({ hasText: deliveryId });
    await expect.poll(() => took.textContent()).toContain('valid');

    // Replay: a second delivery of the same event, delivered and verified too.
    await mine.getByTestId('console-replay').click();
    const replayedId = /Replayed as (\S+)\./.exec((await mine.getByRole('status').textContent()) ?? '')?.[1];
    expect(replayedId).toMatch(/^dlv_/);
    const replayed = block.locator(`[data-testid="console-delivery"][data-delivery-id="${replayedId}"]`);
    await expect.poll(() => replayed.getAttribute('data-status'), { timeout: 5000 }).toBe('delivered');
    await expect
      .poll(() => page.getByTestId('console-received').filter({ hasText: replayedId! }).textContent())
      .toContain('valid');
    await expectAccessible(page, 'deliveries with the test receiver');
  });

  it('subscribes a webhook from the deliveries page, with its secret shown once, and sends it a test event', async () => {
    const before = receiver.received.length;
    await page.goto(`${server.origin}/deliveries`);
    await page.getByText('Subscribe a webhook').click();
    await page.getByLabel('Target URL').fill(`${receiver.url}?from=console`);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.locator('#hook-secret, .subscribe .error').first().waitFor();
    expect(
      await page.locator('.subscribe .error').count(),
      (await page.locator('.subscribe').textContent()) ?? '',
    ).toBe(0);
    const secret = await page.locator('#hook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const listed = (await api('/webhooks/subscriptions')).body.data as { id: string; target_url: string }[];
    const made = listed.find((subscription) => subscription.target_url.endsWith('?from=console'))!;
    const block = page.locator('section.subscription-block', { hasText: made.id });
    await block.getByRole('button', { name: 'Send a test event' }).click();
    const test = block.getByTestId('console-delivery').filter({ hasText: 'webhook.test' });
    await expect.poll(() => test.getAttribute('data-status')).toBe('delivered');
    const hit = receiver.received
      .slice(before)
      .find((entry) => JSON.parse(entry.body).type === 'webhook.test')!;
    const { constructEvent } = await import('@threadwork/shared/webhooks');
    expect(() => constructEvent(hit.body, String(hit.headers['x-service-signature']), secret)).not.toThrow();
  }, 20_000);

  it('creates a key with an opt-in scope, shows its secret once, and revokes it', async () => {
    await page.goto(`${server.origin}/keys`);
    await page.getByLabel('Name').fill('Sends mail');
    const sendScope = page.locator('label.opt-in', { hasText: 'email.send' });
    expect(await sendScope.locator('input').isChecked()).toBe(false);
    await sendScope.locator('input').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('#created-secret').inputValue();
    expect(secret).toMatch(/^tw_live_/);
    const me = await api('/me', { key: secret });
    expect(me.body.data.key.scopes).toContain('email.send');
    const keyId = me.body.data.key.id as string;
    const row = page.locator(`[data-testid="console-key"][data-key-id="${keyId}"]`);
    await expect.poll(() => row.textContent()).toContain('email.send');
    await expectAccessible(page, 'keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('#created-secret').count()).toBe(0);

    await row.getByRole('button', { name: /Revoke/ }).click();
    await row.getByRole('button', { name: /Confirm revoke/ }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await api('/me', { key: secret })).status).toBe(401);
  });

  it('creates a legacy key (key and secret) with the scopes chosen, which the token endpoint takes', async () => {
    await page.goto(`${server.origin}/keys`);
    await page.getByLabel('Name').fill('Second Zap');
    await page.getByLabel(/legacy key and secret/).check();
    await page.locator('.scope-grid label', { hasText: 'crm.write' }).locator('input').uncheck();
    await page.locator('label.opt-in', { hasText: 'drafts.delete' }).locator('input').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = await page.locator('#created-key').inputValue();
    const apiSecret = await page.locator('#created-secret').inputValue();
    const token = await fetch(
      `${server.origin}/auth/api_token?${new URLSearchParams({ email: DEMO_CREDENTIALS.email, api_key: apiKey, api_secret: apiSecret, api_key_name: 'Second Zap' })}`,
      { method: 'POST' },
    );
    expect(token.status).toBe(200);
    const keys = (await api('/api-keys?limit=200')).body.data as {
      name: string;
      type: string;
      scopes: string[];
    }[];
    const made = keys.find((key) => key.name === 'Second Zap')!;
    expect(made.type).toBe('legacy');
    expect(made.scopes).toContain('drafts.delete');
    expect(made.scopes).not.toContain('crm.write');
    expect(made.scopes).not.toContain('email.send');
  });

  it('looks right in light and dark, wide and narrow (screenshots), with no serious axe finding', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 700]) {
        const view = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
        for (const [name, path] of [
          ['overview', '/'],
          ['board', '/boards/brd_product'],
          ['task', '/tasks/tsk_demo_p07'],
          ['mail', '/mail'],
          ['thread', `/mail/${THREAD}`],
          ['deliveries', '/deliveries'],
          ['keys', '/keys'],
        ] as const) {
          await view.goto(`${server.origin}${path}`);
          await view.locator('main h1, main h2').first().waitFor();
          await view.screenshot({ path: join(SHOTS, `console-${name}-${colorScheme}-${width}.png`) });
          if (width === 700) await expectAccessible(view, `${name} ${colorScheme} ${width}`);
        }
        await view.close();
      }
    }
  }, 120_000);
});
