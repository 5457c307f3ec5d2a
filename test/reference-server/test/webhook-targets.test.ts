// Webhook targets that could reach inside the service's own network are refused: at creation, on
// update, on v1 subscribe, and again at delivery (DNS rebinding). No request here leaves loopback: the
// resolver is injected, and no event is raised towards a name that resolves to a public address.
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTransaction } from '../src/domain/transaction.ts';
import { createSubscription } from '../src/domain/webhooks.ts';
import type { HostResolver } from '../src/index.ts';
import { offlineResolver } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  deliveriesOf,
  giveTarget,
  startReceiver,
  startWebhookServer,
  subscribe,
  TARGET_SURFACES,
  type TargetSurface,
  v1Token,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

/** Names the tests resolve, and what to; any other name behaves as the offline resolver says. */
const NAMES: Record<string, string[]> = {
  'public.example': ['93.184.215.14'],
  'public6.example': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'loopback.example': ['127.0.0.1'],
  'mixed.example': ['93.184.215.14', '127.0.0.1'],
  'ula.example': ['fd12:3456::1'],
  'mapped.example': ['::ffff:192.168.0.1'],
};
const tableResolver: HostResolver = async (hostname) => NAMES[hostname] ?? offlineResolver(hostname);

/** Refused with and without --allow-insecure-webhooks: every range, every spelling. */
const ALWAYS_REFUSED = [
  // private (RFC 1918), in several spellings
  'https://10.0.0.1/hook',
  'https://172.16.5.4/hook',
  'https://192.168.1.1/hook',
  'https://0xa000001/hook', // 10.0.0.1 in hex
  'https://012.0.0.1/hook', // 10.0.0.1 with an octal first part
  'https://167772161/hook', // 10.0.0.1 in decimal
  // link-local, cloud metadata
  'https://169.254.169.254/latest/meta-data/',
  'https://[fe80::1]/hook',
  // carrier-grade NAT
  'https://100.64.0.1/hook',
  // unique-local
  'https://[fd00::1]/hook',
  'https://[fc00::5]/hook',
  // multicast and broadcast
  'https://224.0.0.1/hook',
  'https://[ff02::1]/hook',
  'https://255.255.255.255/hook',
  // unspecified
  'https://0.0.0.0/hook',
  'https://0/hook',
  'https://[::]/hook',
  // reserved and documentation
  'https://240.0.0.1/hook',
  'https://198.18.0.1/hook',
  'https://192.0.2.10/hook',
  'https://198.51.100.7/hook',
  'https://203.0.113.9/hook',
  'https://[2001:db8::1]/hook',
  // IPv4 inside IPv6: mapped, compatible, NAT64, 6to4
  'https://[::ffff:10.0.0.1]/hook',
  'https://[::ffff:a9fe:a9fe]/hook',
  'https://[::10.0.0.1]/hook',
  'https://[64:ff9b::a00:1]/hook',
  'https://[2002:a00:1::1]/hook',
  // names that resolve inside (one inside address among public ones is enough)
  'https://internal.example/hook',
  'https://metadata.example/hook',
  'https://loopback.example/hook',
  'https://mixed.example/hook',
  'https://ula.example/hook',
  'https://mapped.example/hook',
  // private ranges stay closed to http even with the flag
  'http://10.0.0.1/hook',
  'http://192.168.0.10:8080/hook',
  'http://public.example/hook',
  // not web URLs at all
  'ftp://public.example/hook',
  'https://user:pass@public.example/hook',
];

/** Loopback: refused by default, accepted with --allow-insecure-webhooks (http and https). */
const LOOPBACK = [
  'https://127.0.0.1/hook',
  'https://127.9.8.7:8443/hook',
  'https://2130706433/hook', // 127.0.0.1 in decimal
  'https://0x7f000001/hook', // in hex
  'https://0177.0.0.1/hook', // in octal
  'https://127.1/hook', // short form
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'http://127.0.0.1:9/hook',
  'http://localhost:9/hook',
  'http://[::1]:9/hook',
];

/** Accepted either way. */
const ALWAYS_ALLOWED = [
  'https://93.184.215.14/hook',
  'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook',
  'https://public.example/hook',
  'https://public6.example:8443/in?x=1',
  // does not resolve (yet): it names nothing inside, and every delivery checks it again
  'https://not-yet-registered.example/hook',
];

interface Attempt {
  status: number;
  body: { error?: { code: string; message: string; details: Array<{ path: string; message: string }> } };
}

function targetTable(allowInsecureWebhooks: boolean) {
  let server: WebhookTestServer;
  let token: string;
  let existing: string;

  beforeAll(async () => {
    server = await startWebhookServer({ allowInsecureWebhooks, resolveHost: tableResolver });
    token = await v1Token(server);
    existing = (
      await subscribe(server, { target_url: 'https://public.example/base', events: ['task.created'] })
    ).id;
  });
  afterAll(() => server.close());

  async function attempt(surface: TargetSurface, url: string): Promise<Attempt> {
    const response = await giveTarget(server, surface, url, { existing, token });
    return { status: response.status, body: (await response.json()) as Attempt['body'] };
  }

  function expectRefused(result: Attempt, surface: TargetSurface, url: string) {
    expect(result.status, `${surface} ${url}`).toBe(400);
    expect(result.body.error?.code).toBe('validation_error');
    const field = surface === 'v1 subscribe' ? 'webhookURL' : 'target_url';
    expect(result.body.error?.details.map((detail) => detail.path)).toEqual([field]);
  }

  const refused = allowInsecureWebhooks ? ALWAYS_REFUSED : [...ALWAYS_REFUSED, ...LOOPBACK];
  const allowed = allowInsecureWebhooks ? [...ALWAYS_ALLOWED, ...LOOPBACK] : ALWAYS_ALLOWED;

  for (const surface of TARGET_SURFACES) {
    it(`${surface} refuses every target inside`, async () => {
      for (const url of refused) expectRefused(await attempt(surface, url), surface, url);
    });

    it(`${surface} accepts public targets${allowInsecureWebhooks ? ' and loopback' : ''}`, async () => {
      for (const url of allowed) {
        const result = await attempt(surface, url);
        expect(result.status, `${surface} ${url}: ${JSON.stringify(result.body)}`).toBe(200);
      }
    });
  }

  it('says what is wrong in words a user can act on', async () => {
    const metadata = await attempt('v2 create', 'https://169.254.169.254/latest/meta-data/');
    expect(metadata.body.error?.details[0]?.message).toBe(
      'must not point at a private or internal address: 169.254.169.254 is a link-local address',
    );
    const named = await attempt('v2 create', 'https://internal.example/hook');
    expect(named.body.error?.details[0]?.message).toBe(
      'must not point at a private or internal address: internal.example resolves to 10.0.0.5, a private address',
    );
  });
}

describe('webhook targets without --allow-insecure-webhooks', () => {
  targetTable(false);

  it('names the flag when it refuses loopback', async () => {
    const server = await startWebhookServer({ allowInsecureWebhooks: false, resolveHost: tableResolver });
    try {
      const response = await server.v2('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: 'https://localhost/hook', events: ['task.created'] },
      });
      const body = (await response.json()) as Attempt['body'];
      expect(body.error?.details[0]?.message).toContain('--allow-insecure-webhooks');
    } finally {
      await server.close();
    }
  });
});

describe('webhook targets with --allow-insecure-webhooks', () => {
  targetTable(true);
});

/** A TCP server on loopback that counts the connections made to it (and answers nothing). */
async function connectionCounter(): Promise<{ port: number; count(): number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('delivery checks the target again and connects only to what it checked', () => {
  const defer = closeAfterEach();

  /** A resolver whose answers the test changes as it goes; it counts its calls per name. */
  function switchableResolver(initial: Record<string, string[]>) {
    const answers = { ...initial };
    const calls: Record<string, number> = {};
    const resolve: HostResolver = async (hostname) => {
      calls[hostname] = (calls[hostname] ?? 0) + 1;
      return answers[hostname] ?? offlineResolver(hostname);
    };
    return { resolve, answers, calls };
  }

  async function lastAttempt(server: WebhookTestServer, subscriptionId: string) {
    let attempt: { outcome: string; error: string | null; status_code: number | null } | undefined;
    await waitUntil(async () => {
      attempt = (await deliveriesOf(server, subscriptionId))[0]?.attempts[0];
      return attempt !== undefined;
    }, 'an attempt');
    return attempt!;
  }

  for (const allowInsecureWebhooks of [false, true]) {
    it(`refuses a name that resolved outside at creation and to loopback at delivery (flag ${allowInsecureWebhooks ? 'on' : 'off'})`, async () => {
      const counter = await connectionCounter();
      defer(counter.close);
      const dns = switchableResolver({ 'rebind.example': ['93.184.215.14'] });
      const server = await startWebhookServer({ allowInsecureWebhooks, resolveHost: dns.resolve });
      defer(server.close);

      const subscription = await subscribe(server, {
        target_url: `https://rebind.example:${counter.port}/hook`,
        events: ['task.created'],
      });
      // The name now points at the machine itself, where the counter listens.
      dns.answers['rebind.example'] = ['127.0.0.1'];
      const test = await server.v2(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' });
      expect(test.status).toBe(200);

      const attempt = await lastAttempt(server, subscription.id);
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toBe(
        'target refused: must not point at a private or internal address: rebind.example resolves to 127.0.0.1, a loopback address',
      );
      expect(counter.count()).toBe(0);
    });
  }

  it('checks v1 hook deliveries again too', async () => {
    const counter = await connectionCounter();
    defer(counter.close);
    const dns = switchableResolver({ 'rebind.example': ['93.184.215.14'] });
    const server = await startWebhookServer({ allowInsecureWebhooks: true, resolveHost: dns.resolve });
    defer(server.close);

    const subscribed = await server.v1('/items/subscribe', {
      method: 'POST',
      token: await v1Token(server),
      body: {
        action: 'createOnBoard',
        entityId: 'brd_acme',
        webhookURL: `https://rebind.example:${counter.port}/hook`,
      },
    });
    expect(subscribed.status).toBe(200);
    dns.answers['rebind.example'] = ['127.0.0.1'];
    await createTask(server, 'lst_todo', 'Rebound');

    let errors: Array<string | null> = [];
    await waitUntil(async () => {
      const rows = await server.ctx.db
        .selectFrom('webhook_delivery_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .where('d.kind', '=', 'v1')
        .select('a.error')
        .execute();
      errors = rows.map((row) => row.error);
      return errors.length > 0;
    }, 'a v1 attempt');
    expect(errors[0]).toContain(
      'target refused: must not point at a private or internal address: rebind.example resolves to 127.0.0.1',
    );
    expect(counter.count()).toBe(0);
  });

  it('does not follow a redirect', async () => {
    const elsewhere = await startReceiver(() => 200);
    defer(elsewhere.close);
    let redirected = 0;
    const redirecting = createHttpServer((request, response) => {
      redirected += 1;
      request.resume();
      response.writeHead(307, { location: elsewhere.url }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    defer(() => new Promise((resolve) => redirecting.close(resolve)));
    const { port } = redirecting.address() as AddressInfo;

    const server = await startWebhookServer({ allowInsecureWebhooks: true });
    defer(server.close);
    const subscription = await subscribe(server, {
      target_url: `http://127.0.0.1:${port}/hook`,
      events: ['task.created'],
    });
    await server.v2(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' });
    const attempt = await lastAttempt(server, subscription.id);
    expect(attempt).toMatchObject({ outcome: 'failed', status_code: 307 });
    // Retried (a 3xx is a failure), never sent to the Location.
    expect(redirected).toBeGreaterThanOrEqual(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('connects to the address it checked, not to one looked up again', async () => {
    // The receiver listens on 127.0.0.2; `localhost` looked up by the system would be 127.0.0.1 or ::1.
    const receiver = await startReceiver(() => 200, 0, '127.0.0.2');
    defer(receiver.close);
    const dns = switchableResolver({ localhost: ['127.0.0.2'] });
    const server = await startWebhookServer({ allowInsecureWebhooks: true, resolveHost: dns.resolve });
    defer(server.close);

    const subscription = await subscribe(server, {
      target_url: `http://localhost:${receiver.port}/hook`,
      events: ['task.created'],
    });
    const callsAtCreation = dns.calls['localhost'] ?? 0;
    await server.v2(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' });
    await waitUntil(() => receiver.requests.length === 1, 'the delivery');
    const attempt = await lastAttempt(server, subscription.id);
    expect(attempt.outcome).toBe('succeeded');
    // One look-up for the attempt: the connection used its answer.
    expect((dns.calls['localhost'] ?? 0) - callsAtCreation).toBe(1);
  });

  it('counts connections, so a delivery that is allowed is seen by the counter', async () => {
    const counter = await connectionCounter();
    defer(counter.close);
    const server = await startWebhookServer({ allowInsecureWebhooks: true });
    defer(server.close);
    const subscription = await subscribe(server, {
      target_url: `https://localhost:${counter.port}/hook`,
      events: ['task.created'],
    });
    await server.v2(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' });
    await lastAttempt(server, subscription.id);
    expect(counter.count()).toBeGreaterThan(0);
  });
});

describe('the domain keeps the rule when called without the routes', () => {
  it('refuses a target address inside, and loopback without the flag, with no resolver at all', async () => {
    const server = await startWebhookServer({ allowInsecureWebhooks: false });
    try {
      const create = (target_url: string) =>
        runInTransaction(server.ctx, (tx) =>
          createSubscription(
            tx,
            { userId: 'usr_ada', keyId: null },
            { target_url, events: ['task.created'] },
            { allowInsecureWebhooks: false, listeningPorts: new Set() },
            new Date(),
          ),
        );
      for (const url of [
        'https://10.0.0.1/hook',
        'https://[::ffff:a9fe:a9fe]/hook',
        'https://localhost/hook',
      ]) {
        await expect(create(url), url).rejects.toMatchObject({ code: 'validation_error' });
      }
      await expect(create('https://public.example/hook')).resolves.toMatchObject({ status: 'active' });
    } finally {
      await server.close();
    }
  });
});
