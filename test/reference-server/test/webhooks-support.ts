// What the webhook and delivery tests share: a local receiver that records every POST byte for byte
// and answers what the test tells it to, a bounded wait, and small request shortcuts.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { AppContext } from '../src/http/context.ts';
import { type ServerOptions, startServer } from '../src/index.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { offlineResolver, type RequestOptions, readBody, type TestServer } from './helpers/server.ts';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: string;
  /** Wall-clock arrival time (ms since the epoch). */
  at: number;
}

/** An answer with more than a status: headers and a body (default: no content-type, body `{}`). */
export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * Returns the status (or the whole answer) to give, possibly later; called once per request, `index`
 * counting from 0, after the request is recorded.
 */
export type Responder = (
  request: ReceivedRequest,
  index: number,
) => number | ReceiverAnswer | Promise<number | ReceiverAnswer>;

export interface Receiver {
  /** `http://<host>:<port>/hook` (127.0.0.1 unless told) */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  respond: Responder;
  /** Stops listening (connections are refused until `listen` again). */
  close(): Promise<void>;
  /** Listens again on the same port. */
  listen(): Promise<void>;
}

export async function startReceiver(
  respond: Responder = () => 200,
  port = 0,
  host = '127.0.0.1',
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let server: Server | null = null;
  const receiver: Receiver = {
    url: '',
    port,
    requests,
    respond,
    async listen() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const received = {
            path: req.url ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            at: Date.now(),
          };
          requests.push(received);
          void Promise.resolve(receiver.respond(received, requests.length - 1)).then((answer) => {
            const {
              status,
              headers = {},
              body = '{}',
            } = typeof answer === 'number' ? { status: answer } : answer;
            res.writeHead(status, headers).end(body);
          });
        });
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(receiver.port, host, resolve));
      receiver.port = (listening.address() as AddressInfo).port;
      receiver.url = `http://${host}:${receiver.port}/hook`;
    },
    async close() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  await receiver.listen();
  return receiver;
}

/**
 * Call in a describe block: returns `defer`, which keeps a closer (a receiver's, a server's) to run after
 * the current test, the last one kept first.
 */
export function closeAfterEach(): (...closers: Array<() => Promise<unknown>>) => void {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return (...added) => {
    closers.push(...added);
  };
}

/** Polls `check` every 10 ms until it holds; fails after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether `promise` settles within `ms`. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}

/** Creates a v2 subscription (as ada unless `key` is given) and returns its body's data. */
export async function subscribe(
  server: TestServer,
  body: { target_url: string; events: string[]; filters?: { scope: string } },
  key?: string,
) {
  const response = await server.v2('/webhooks/subscriptions', {
    method: 'POST',
    body,
    ...(key ? { key } : {}),
  });
  const payload = await readBody(response);
  if (response.status !== 200)
    throw new Error(`subscribe failed: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data as { id: string; secret: string; status: string };
}

export async function createTask(server: TestServer, listId: string, title: string, key?: string) {
  const response = await server.v2('/tasks', {
    method: 'POST',
    body: { list_id: listId, title },
    ...(key ? { key } : {}),
  });
  const payload = await readBody(response);
  if (response.status !== 200)
    throw new Error(`create task failed: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data as { id: string; title: string };
}

/** The delivery log of a subscription, newest first. */
export async function deliveriesOf(server: TestServer, subscriptionId: string, query = '', key?: string) {
  const response = await server.v2(
    `/webhooks/subscriptions/${subscriptionId}/deliveries${query}`,
    key ? { key } : {},
  );
  const payload = await readBody(response);
  if (response.status !== 200)
    throw new Error(`deliveries failed: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data as Array<{
    id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
    attempts: Array<{
      outcome: string;
      status_code: number | null;
      duration_ms: number;
      error: string | null;
    }>;
  }>;
}

/** A v1 session token for ada's legacy key. */
export async function v1Token(server: TestServer): Promise<string> {
  const response = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SECRETS.legacy),
  });
  const payload = await readBody(response);
  return payload['x-access-token'] as string;
}

/** The three places a webhook target is given. */
export type TargetSurface = 'v2 create' | 'v2 update' | 'v1 subscribe';
export const TARGET_SURFACES: TargetSurface[] = ['v2 create', 'v2 update', 'v1 subscribe'];

/**
 * Gives `url` as a webhook target on one surface: a new v2 subscription, the v2 subscription `existing`
 * changed, or a v1 hook subscribed with the session `token`.
 */
export function giveTarget(
  server: TestServer,
  surface: TargetSurface,
  url: string,
  { existing, token }: { existing: string; token: string },
): Promise<Response> {
  if (surface === 'v2 create') {
    return server.v2('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: url, events: ['task.created'] },
    });
  }
  if (surface === 'v2 update') {
    return server.v2(`/webhooks/subscriptions/${existing}`, { method: 'PATCH', body: { target_url: url } });
  }
  return server.v1('/items/subscribe', {
    method: 'POST',
    token,
    body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: url },
  });
}

export interface WebhookTestServer extends TestServer {
  /** The server's context, for driving the domain directly (runInTransaction). */
  ctx: AppContext;
}

/**
 * An in-process server like `startTestServer` (fixture seed, in-memory database, ada's full key by
 * default) that also exposes its context. Webhook tests need loopback http targets and fast retries.
 */
export async function startWebhookServer(options: ServerOptions = {}): Promise<WebhookTestServer> {
  const running = await startServer({
    port: 0,
    ...(await freshDatabase(options.db)),
    seed: fixtureSeed,
    allowInsecureWebhooks: true,
    webhookTimeScale: 0.001,
    resolveHost: offlineResolver,
    ...options,
  });
  const call = (root: string, path: string, init: RequestOptions = {}) => {
    const { body, key, token, headers: given, ...rest } = init;
    const headers = new Headers(given);
    if (token) headers.set('x-access-token', token);
    else if (key !== null) headers.set('authorization', `Bearer ${key ?? SECRETS.adaFull}`);
    if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const payload = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
    return fetch(`${running.origin}${root}${path}`, {
      ...rest,
      headers,
      body: payload as string | undefined,
    });
  };
  return {
    origin: running.origin,
    ctx: running.app.ctx,
    close: () => running.close(),
    v2: (path, init) => call('/v2', path, init),
    v1: (path, init) => call('/api/v1', path, { key: null, ...init }),
  };
}

/** A clock that runs with real time plus an offset the test can move forward. */
export function shiftableClock(): { now: () => Date; advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}
