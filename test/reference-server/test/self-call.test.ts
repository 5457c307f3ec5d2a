// The service never calls itself (docs/webhooks.md, "The service never calls itself"): a webhook target
// on loopback at a port this server listens on is refused at creation, at update and again at delivery,
// for v2 subscriptions and v1 hooks alike; only the console's test receiver is allowed there. The old
// loop (a subscription whose target is the console's own "send a test event" route) is driven here from
// a database that holds such a row, as one written before the rule would.
import { afterEach, describe, expect, it } from 'vitest';
import { subscriptionsChanged } from '../src/domain/events/listeners.ts';
import { checkTargetSyntax, TargetRefused } from '../src/domain/webhook-targets.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { clientOf, offlineResolver, readBody, type TestServer } from './helpers/server.ts';
import {
  giveTarget,
  sleep,
  startReceiver,
  subscribe,
  TARGET_SURFACES,
  type TargetSurface,
  v1Token,
  waitUntil,
} from './webhooks-support.ts';

const started: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of started.splice(0).reverse()) await close();
});

/** A server as `pnpm start` runs one: loopback webhooks allowed, the console on, fast retries. */
async function start(options: Parameters<typeof startServer>[0] = {}) {
  const running = await startServer({
    port: 0,
    ...(await freshDatabase()),
    seed: fixtureSeed,
    allowInsecureWebhooks: true,
    console: true,
    webhookTimeScale: 0.001,
    resolveHost: offlineResolver,
    ...options,
  });
  started.push(() => running.close());
  const port = Number(new URL(running.origin).port);
  return { running, server: clientOf(running.origin, async () => {}), port };
}

/** Tries `url` on one surface; answers the status and the error's details. */
async function tryTarget(server: TestServer, surface: TargetSurface, url: string, existing: string) {
  // Only a v1 hook is sent a session token: the v2 surfaces mint none.
  const token = surface === 'v1 subscribe' ? await v1Token(server) : '';
  const response = await giveTarget(server, surface, url, { existing, token });
  const body = await readBody(response);
  return { status: response.status, body };
}

/** Every spelling of "this server" a target may use, at the server's port. */
function ownTargets(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/hook`,
    `http://localhost:${port}/hook`,
    `http://LOCALHOST.:${port}/hook`,
    `http://[::1]:${port}/hook`,
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://127.0.0.2:${port}/hook`,
    `http://2130706433:${port}/hook`,
    `https://localhost:${port}/hook`,
    // The console's own routes, the old loop's target among them.
    `http://127.0.0.1:${port}/_console/api/webhooks/wh_any/test`,
    `http://localhost:${port}/_console/api/tasks`,
    // Near the receiver's path, but not it.
    `http://127.0.0.1:${port}/_console/receiver/`,
    `http://127.0.0.1:${port}/_console/receiver/x`,
    `http://127.0.0.1:${port}/_console/receiver2`,
    `http://127.0.0.1:${port}/_console/Receiver`,
  ];
}

describe('a webhook target at this server’s own address', () => {
  for (const surface of TARGET_SURFACES) {
    it(`is refused on ${surface}, in every loopback spelling, with a message that says why`, async () => {
      const { server, port } = await start();
      const receiver = await startReceiver();
      started.push(() => receiver.close());
      const existing = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
      const field = surface === 'v1 subscribe' ? 'webhookURL' : 'target_url';
      for (const url of ownTargets(port)) {
        const { status, body } = await tryTarget(server, surface, url, existing.id);
        expect(status, `${surface} ${url}: ${JSON.stringify(body)}`).toBe(400);
        expect(body.error.code).toBe('validation_error');
        expect(body.error.details).toEqual([
          {
            path: field,
            message: expect.stringMatching(
              new RegExp(
                `^must not point at this server itself: .* port ${port} is where this server listens`,
              ),
            ),
          },
        ]);
      }
      // Nothing changed: the update left the target as it was, and no v1 hook was made.
      const kept = await readBody(await server.v2(`/webhooks/subscriptions/${existing.id}`));
      expect(kept.data.target_url).toBe(receiver.url);
    });
  }

  it('names the host and port in the message', async () => {
    const { server, port } = await start();
    const { body } = await tryTarget(server, 'v2 create', `http://localhost:${port}/hook`, '');
    expect(body.error.details[0].message).toBe(
      `must not point at this server itself: localhost port ${port} is where this server listens, and a delivery there would call the service's own routes`,
    );
  });

  it('accepts the console’s test receiver (that exact path) and another port on loopback', async () => {
    const { server, port } = await start();
    const receiver = await startReceiver();
    started.push(() => receiver.close());
    const existing = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    for (const surface of TARGET_SURFACES) {
      for (const url of [
        `http://127.0.0.1:${port}/_console/receiver`,
        `http://localhost:${port}/_console/receiver`,
        receiver.url,
      ]) {
        const { status, body } = await tryTarget(server, surface, url, existing.id);
        expect(status, `${surface} ${url}: ${JSON.stringify(body)}`).toBe(200);
      }
    }
  });

  it('is refused at every loopback address when the server listens on 0.0.0.0', async () => {
    const { running, port } = await start({ host: '0.0.0.0' });
    const server = clientOf(`http://127.0.0.1:${port}`, async () => {});
    expect(running.origin).toBe(`http://0.0.0.0:${port}`);
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      `http://127.1.2.3:${port}/hook`,
      `http://localhost:${port}/`,
    ]) {
      const { status } = await tryTarget(server, 'v2 create', url, '');
      expect(status, url).toBe(400);
    }
  });

  it('counts the scheme’s default port when the URL names none', () => {
    const policy = (ports: number[]) => ({ allowInsecureWebhooks: true, listeningPorts: new Set(ports) });
    const refused = (url: string, ports: number[]) => {
      try {
        checkTargetSyntax(url, policy(ports));
        return null;
      } catch (error) {
        if (error instanceof TargetRefused) return error.message;
        throw error;
      }
    };
    expect(refused('http://localhost/hook', [80])).toContain(
      'localhost port 80 is where this server listens',
    );
    expect(refused('https://127.0.0.1/hook', [443])).toContain('port 443');
    expect(refused('http://[::1]/hook', [80])).toContain('port 80');
    expect(refused('http://localhost/hook', [443])).toBeNull();
    expect(refused('https://localhost/hook', [80])).toBeNull();
    expect(refused('http://localhost:80/_console/receiver', [80])).toBeNull();
  });
});

/** Counts the requests that reach any console path of a running server. */
function countConsoleRequests(running: RunningServer): () => number {
  let count = 0;
  running.app.server.on('request', (request: { url?: string }) => {
    if (request.url?.startsWith('/_console/')) count += 1;
  });
  return () => count;
}

describe('the old loop, from a database written before the rule', () => {
  it('sends no delivery to a console route: each attempt is refused, and the database does not grow', async () => {
    const { running, server, port } = await start();
    const db = running.app.ctx.db;
    const consoleRequests = countConsoleRequests(running);
    const now = new Date().toISOString();
    // As a database from before the rule may hold them: a v2 subscription whose target is the console's
    // own "send a test event" route for itself, and a v1 hook on the console's task creation.
    await db
      .insertInto('webhook_subscriptions')
      .values({
        id: 'wh_loop',
        user_id: 'usr_ada',
        target_url: `http://127.0.0.1:${port}/_console/api/webhooks/wh_loop/test`,
        events: JSON.stringify(['task.created']),
        filters: JSON.stringify({ scope: 'tasked' }),
        status: 'active',
        disabled_reason: null,
        secrets: JSON.stringify([{ secret: 'whsec_loop', expires_at: null }]),
        failing_since: null,
        created_at: now,
      })
      .execute();
    await db
      .insertInto('v1_hook_subscriptions')
      .values({
        id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        user_id: 'usr_ada',
        action: 'createOnBoard',
        entity_id: 'brd_acme',
        webhook_url: `http://localhost:${port}/_console/api/tasks`,
        api_service: null,
        failing_since: null,
        created_at: now,
      })
      .execute();
    // Caches that learned the subscriptions before the rows went in directly.
    subscriptionsChanged(db);

    const test = await server.v2('/webhooks/subscriptions/wh_loop/test', { method: 'POST' });
    expect(test.status).toBe(200);
    const task = await server.v2('/tasks', { method: 'POST', body: { list_id: 'lst_todo', title: 'Loop?' } });
    expect(task.status).toBe(200);

    const attempts = () =>
      db
        .selectFrom('webhook_delivery_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select(['d.kind', 'd.subscription_id', 'a.error', 'a.status_code'])
        .execute();
    await waitUntil(async () => {
      const kinds = new Set((await attempts()).map((attempt) => attempt.kind));
      return kinds.has('v1') && kinds.has('v2');
    }, 'an attempt of each kind');
    // Long enough for thousands of deliveries if the loop were still there (5,000 in 5 s was seen).
    await sleep(500);

    expect(consoleRequests()).toBe(0);
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select(['kind', 'subscription_id'])
      .execute();
    expect(deliveries).toHaveLength(3); // the test event to wh_loop, the task.created to wh_loop, the v1 hook
    const events = await db.selectFrom('events').select('type').execute();
    expect(events.map((event) => event.type).sort()).toEqual(['task.created', 'webhook.test']);
    for (const attempt of await attempts()) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toMatch(
        new RegExp(
          `^target refused: must not point at this server itself: .* port ${port} is where this server listens`,
        ),
      );
    }
    // Refused attempts follow the usual schedule: retried a bounded number of times, never in a loop.
    const counts = await db.selectFrom('webhook_deliveries').select('attempt_count').execute();
    for (const { attempt_count } of counts) expect(attempt_count).toBeLessThanOrEqual(9);
  });
});

describe('the console’s own routes need the page’s token', () => {
  it('refuses a delivery-shaped request (loopback, no Origin, no token) to a console write', async () => {
    const { running, server } = await start();
    const created = await subscribe(server, {
      target_url: `${running.origin}/_console/receiver`,
      events: ['task.created'],
    });
    // Exactly what the worker would send: a POST from loopback without Origin or token.
    const answer = await fetch(`${running.origin}/_console/api/webhooks/${created.id}/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRETS.adaFull}` },
      body: '{}',
    });
    expect(answer.status).toBe(403);
    const body = await readBody(answer);
    expect(body.error.code).toBe('forbidden');
    expect(body.error.message).toContain('x-console-token');
    const deliveries = await running.app.ctx.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(deliveries).toHaveLength(0);
  });
});
