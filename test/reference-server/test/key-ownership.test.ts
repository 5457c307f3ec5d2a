// Keys own what they subscribe (docs/scopes-and-keys.md, docs/webhooks.md): a v2 webhook subscription and
// a v1 hook belong to the key that made them (through a session token: its legacy key; in the console: no
// key). Revoking a key, in the same change, disables its v2 subscriptions (`key_revoked`: kept, events
// recorded as suppressed deliveries) and deletes its v1 hooks, so nothing more reaches their receivers,
// not even a delivery already waiting for its retry. Re-enabling a subscription makes it the
// re-enabling key's. The key listing and the revoke answer count what a key holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { type Answer, consoleApi, readAnswer, readBody, type TestServer } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  deliveriesOf,
  sleep,
  startReceiver,
  startWebhookServer,
  waitUntil,
} from './webhooks-support.ts';

let names = 0;

/** A legacy key made through the API (by ada's full v2 key) and a session token minted from it. */
async function legacyKey(server: TestServer): Promise<{ id: string; token: string }> {
  const name = `Zap ${++names}`;
  const created = await readAnswer(
    await server.v2('/api-keys', { method: 'POST', body: { name, type: 'legacy' } }),
  );
  expect(created.status).toBe(200);
  const { id, api_key, api_secret } = created.body.data;
  const response = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', api_key, api_secret, api_key_name: name }),
  });
  expect(response.status).toBe(200);
  return { id, token: (await readBody(response))['x-access-token'] };
}

/** A v2 key made through the API. */
async function v2Key(server: TestServer): Promise<{ id: string; secret: string }> {
  const created = await readAnswer(
    await server.v2('/api-keys', { method: 'POST', body: { name: `cli ${++names}` } }),
  );
  expect(created.status).toBe(200);
  return { id: created.body.data.id, secret: created.body.data.secret };
}

/** A v1 hook on every task created on the Acme board. */
async function hook(server: TestServer, token: string, url: string): Promise<string> {
  const made = await readAnswer(
    await server.v1('/items/subscribe', {
      method: 'POST',
      token,
      body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: url, apiService: 'zapier' },
    }),
  );
  expect(made.status).toBe(200);
  return made.body.id;
}

/** A v2 subscription to task.created, made with a bearer key or a session token. */
async function webhook(
  server: TestServer,
  url: string,
  credential: { key?: string; token?: string },
): Promise<{ id: string; key_id?: string | null }> {
  const made = await readAnswer(
    await server.v2('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: url, events: ['task.created'] },
      ...credential,
    }),
  );
  expect(made.status).toBe(200);
  return made.body.data;
}

/** Each key's `subscriptions` as the key listing shows them (read with ada's full key). */
async function holdings(server: TestServer): Promise<Map<string, { webhooks: number; hooks: number }>> {
  const listed = await readAnswer(await server.v2('/api-keys?limit=200'));
  expect(listed.status).toBe(200);
  return new Map(
    (listed.body.data as { id: string; subscriptions: { webhooks: number; hooks: number } }[]).map((key) => [
      key.id,
      key.subscriptions,
    ]),
  );
}

const revoke = async (server: TestServer, keyId: string, key?: string): Promise<Answer> =>
  readAnswer(await server.v2(`/api-keys/${keyId}`, { method: 'DELETE', ...(key ? { key } : {}) }));

const subscription = async (server: TestServer, id: string) =>
  (await readAnswer(await server.v2(`/webhooks/subscriptions/${id}`))).body.data;

describe('revoking a key stops what it subscribed', () => {
  const cleanup = closeAfterEach();
  let server: TestServer & { close(): Promise<void> };
  beforeAll(async () => {
    server = await startWebhookServer();
  });
  afterAll(() => server.close());

  it('its v1 hook and its v2 webhook stop at once; another key’s hook keeps receiving', async () => {
    const [hookOfA, webhookOfA, hookOfB] = await Promise.all([
      startReceiver(),
      startReceiver(),
      startReceiver(),
    ]);
    cleanup(hookOfA.close, webhookOfA.close, hookOfB.close);
    // Key A subscribes as a Zap does: a v1 hook, and a v2 webhook over the same session token.
    const a = await legacyKey(server);
    const b = await legacyKey(server);
    await hook(server, a.token, hookOfA.url);
    const made = await webhook(server, webhookOfA.url, { token: a.token });
    expect(made.key_id).toBe(a.id);
    await hook(server, b.token, hookOfB.url);
    expect((await holdings(server)).get(a.id)).toEqual({ webhooks: 1, hooks: 1 });
    expect((await holdings(server)).get(b.id)).toEqual({ webhooks: 0, hooks: 1 });

    await createTask(server, 'lst_todo', 'Before the revoke');
    const all = [hookOfA, webhookOfA, hookOfB];
    await waitUntil(() => all.every((receiver) => receiver.requests.length === 1), 'the first deliveries');

    // A second client (ada's own v2 key) revokes A.
    const revoked = await revoke(server, a.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ id: a.id, deleted: true, webhooks_disabled: 1, hooks_deleted: 1 });
    expect(await subscription(server, made.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'key_revoked',
      key_id: a.id,
    });
    expect((await holdings(server)).has(a.id)).toBe(false);
    expect((await holdings(server)).get(b.id)).toEqual({ webhooks: 0, hooks: 1 });
    expect((await readAnswer(await server.v1('/teams', { token: a.token }))).status).toBe(401);

    const after = await createTask(server, 'lst_todo', 'After the revoke');
    await waitUntil(() => hookOfB.requests.length === 2, 'key B’s hook hearing the second task');
    expect(JSON.parse(hookOfB.requests[1]!.body)).toMatchObject({ id: after.id });
    await sleep(300);
    expect([hookOfA.requests.length, webhookOfA.requests.length]).toEqual([1, 1]);
    // The disabled subscription still records the event, as a delivery that was not sent.
    const log = await deliveriesOf(server, made.id);
    expect(log.map((delivery) => [delivery.status, delivery.attempt_count])).toEqual([
      ['suppressed', 0],
      ['delivered', 1],
    ]);
  });

  it('a subscription made with a v2 key is that key’s, and one key’s revoke leaves another’s be', async () => {
    const receiver = await startReceiver();
    cleanup(receiver.close);
    const [first, second] = [await v2Key(server), await v2Key(server)];
    const ofFirst = await webhook(server, receiver.url, { key: first.secret });
    const ofSecond = await webhook(server, receiver.url, { key: second.secret });
    expect([ofFirst.key_id, ofSecond.key_id]).toEqual([first.id, second.id]);
    // A key may revoke itself: its own subscriptions stop with it.
    const revoked = await revoke(server, first.id, first.secret);
    expect(revoked.body.data).toEqual({
      id: first.id,
      deleted: true,
      webhooks_disabled: 1,
      hooks_deleted: 0,
    });
    expect((await subscription(server, ofSecond.id)).status).toBe('active');
    expect((await holdings(server)).get(second.id)).toEqual({ webhooks: 1, hooks: 0 });
  });
});

describe('a delivery waiting for its retry when its key is revoked', () => {
  const cleanup = closeAfterEach();
  // The second retry comes 5 s × 0.4 = 2 s (±10 %) after the first (immediate) one: time enough to revoke.
  const RETRY_MS = 2000;
  let server: TestServer & { close(): Promise<void> };
  beforeAll(async () => {
    server = await startWebhookServer({ webhookTimeScale: RETRY_MS / 5000 });
  });
  afterAll(() => server.close());

  it('never reaches the receiver: a v1 hook’s, a v2 event’s, and a test event’s', {
    timeout: 15_000,
  }, async () => {
    const failing = () => 500;
    const [hookReceiver, webhookReceiver] = [await startReceiver(failing), await startReceiver(failing)];
    cleanup(hookReceiver.close, webhookReceiver.close);
    const a = await legacyKey(server);
    await hook(server, a.token, hookReceiver.url);
    const made = await webhook(server, webhookReceiver.url, { token: a.token });
    await createTask(server, 'lst_todo', 'Retried');
    // A test event is sent even to a disabled subscription: it too must not go out once A is revoked.
    const test = await readAnswer(
      await server.v2(`/webhooks/subscriptions/${made.id}/test`, { method: 'POST', token: a.token }),
    );
    expect(test.status).toBe(200);
    // The first attempt, and its retry at once; the next retry waits RETRY_MS.
    await waitUntil(
      () => hookReceiver.requests.length === 2 && webhookReceiver.requests.length === 4,
      'the first attempts and their immediate retries',
    );
    const pending = await deliveriesOf(server, made.id);
    expect(pending.map((delivery) => delivery.status)).toEqual(['pending', 'pending']);

    expect((await revoke(server, a.id)).body.data).toMatchObject({ webhooks_disabled: 1, hooks_deleted: 1 });
    await sleep(RETRY_MS * 1.1 + 700);
    expect([hookReceiver.requests.length, webhookReceiver.requests.length]).toEqual([2, 4]);
    const settled = await deliveriesOf(server, made.id);
    expect(settled.map((delivery) => [delivery.status, delivery.attempt_count])).toEqual([
      ['suppressed', 2],
      ['suppressed', 2],
    ]);
  });
});

describe('re-enabling a subscription', () => {
  let server: TestServer & { close(): Promise<void> };
  beforeAll(async () => {
    server = await startWebhookServer();
  });
  afterAll(() => server.close());

  const patch = async (id: string, body: unknown, key: string) =>
    readAnswer(await server.v2(`/webhooks/subscriptions/${id}`, { method: 'PATCH', body, key }));

  it('makes it belong to the key that re-enabled it', async () => {
    const [maker, other] = [await v2Key(server), await v2Key(server)];
    const made = await webhook(server, 'http://127.0.0.1:9/hook', { key: maker.secret });
    // Changing it, or setting active what is active, moves nothing.
    expect((await patch(made.id, { events: ['task.moved'] }, other.secret)).body.data.key_id).toBe(maker.id);
    expect((await patch(made.id, { status: 'active' }, other.secret)).body.data.key_id).toBe(maker.id);
    // Disabled by hand, it still belongs to its maker, and no longer counts as a key's active webhook.
    const disabled = await patch(made.id, { status: 'disabled' }, other.secret);
    expect(disabled.body.data).toMatchObject({
      status: 'disabled',
      disabled_reason: 'manual',
      key_id: maker.id,
    });
    expect((await holdings(server)).get(maker.id)).toEqual({ webhooks: 0, hooks: 0 });

    const enabled = await patch(made.id, { status: 'active' }, other.secret);
    expect(enabled.body.data).toMatchObject({ status: 'active', disabled_reason: null, key_id: other.id });
    expect((await holdings(server)).get(other.id)).toEqual({ webhooks: 1, hooks: 0 });
    expect((await revoke(server, maker.id)).body.data.webhooks_disabled).toBe(0);
    expect((await subscription(server, made.id)).status).toBe('active');
    expect((await revoke(server, other.id)).body.data.webhooks_disabled).toBe(1);

    // Re-enabled after its key was revoked: the re-enabling key's now.
    const revived = await patch(made.id, { status: 'active' }, SECRETS.adaFull);
    expect(revived.body.data).toMatchObject({ status: 'active', key_id: 'key_ada_full' });
  });
});

describe('the console', () => {
  const cleanup = closeAfterEach();
  let server: TestServer & { close(): Promise<void> };
  beforeAll(async () => {
    server = await startWebhookServer({ console: true });
  });
  afterAll(() => server.close());

  const viaConsole = async (path: string, init: { method?: string; body?: unknown } = {}) =>
    readAnswer(
      await consoleApi(server, path, {
        method: init.method ?? 'GET',
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      }),
    );

  it('subscribes for no key, revokes as the API does, and shows what each key holds and why one stopped', async () => {
    const [ofConsole, ofKey] = [await startReceiver(), await startReceiver()];
    cleanup(ofConsole.close, ofKey.close);
    const made = await viaConsole('webhooks', {
      method: 'POST',
      body: { target_url: ofConsole.url, events: ['task.created'] },
    });
    expect(made.status).toBe(200);
    expect(made.body.data.key_id).toBeNull();
    const a = await legacyKey(server);
    await hook(server, a.token, ofKey.url);
    const keyed = await webhook(server, ofKey.url, { token: a.token });

    const keys = await viaConsole('keys');
    const listed = (keys.body.data.keys as { id: string; subscriptions: unknown }[]).find(
      (key) => key.id === a.id,
    );
    expect(listed?.subscriptions).toEqual({ webhooks: 1, hooks: 1 });
    const revoked = await viaConsole(`keys/${a.id}`, { method: 'DELETE' });
    expect(revoked.body.data).toEqual({ id: a.id, deleted: true, webhooks_disabled: 1, hooks_deleted: 1 });

    // With every key of the user revoked, the console's subscription still delivers.
    for (const keyId of ['key_ada_full', 'key_ada_read', 'key_ada_legacy']) {
      expect((await viaConsole(`keys/${keyId}`, { method: 'DELETE' })).status).toBe(200);
    }
    const task = await viaConsole('tasks', { method: 'POST', body: { list_id: 'lst_todo', title: 'Seen' } });
    expect(task.status).toBe(200);
    await waitUntil(() => ofConsole.requests.length === 1, 'the console subscription’s delivery');
    await sleep(300);
    expect(ofKey.requests.length).toBe(0);

    const view = await viaConsole('deliveries');
    const shown = view.body.data.subscriptions as {
      id: string;
      kind: string;
      status: string;
      disabled_reason: string | null;
    }[];
    expect(
      shown.map(({ id, kind, status, disabled_reason }) => ({ id, kind, status, disabled_reason })),
    ).toEqual([
      { id: made.body.data.id, kind: 'v2', status: 'active', disabled_reason: null },
      { id: keyed.id, kind: 'v2', status: 'disabled', disabled_reason: 'key_revoked' },
    ]);
  });
});
