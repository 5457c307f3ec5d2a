import { createHash } from 'node:crypto';
import {
  AuthenticationError,
  DEFAULT_SCOPES,
  InsufficientScopeError,
  LegacyClient,
  NotFoundError,
  SCOPES,
} from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { readAnswer, typedClient } from './helpers/server.ts';
import { startWebhookServer, type WebhookTestServer } from './webhooks-support.ts';

describe('v2 API keys', () => {
  // A test server that also exposes its context, to read how a key is stored.
  let server: WebhookTestServer;
  beforeAll(async () => {
    server = await startWebhookServer();
  });
  afterAll(() => server.close());

  async function exchange(credentials: Record<string, string>) {
    const response = await fetch(`${server.origin}/auth/api_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    return readAnswer(response);
  }

  const seededLegacyToken = () =>
    new LegacyClient({
      origin: server.origin,
      email: 'ada@example.com',
      apiKey: SECRETS.legacy.api_key,
      apiSecret: SECRETS.legacy.api_secret,
      apiKeyName: SECRETS.legacy.api_key_name,
    }).getToken();

  it('lists the caller’s keys, never a secret', async () => {
    const page = await typedClient(server).apiKeys.list();
    const ids = page.data.map((key) => key.id);
    expect(ids).toEqual(expect.arrayContaining(['key_ada_full', 'key_ada_read', 'key_ada_legacy']));
    expect(ids).not.toContain('key_bob_full');
    const legacy = page.data.find((key) => key.id === 'key_ada_legacy')!;
    expect(legacy).toMatchObject({ type: 'legacy', name: 'Zapier', api_key: SECRETS.legacy.api_key });
    // A seeded key without `scopes` holds every scope.
    expect(legacy.scopes).toEqual([...SCOPES]);
    const readOnly = page.data.find((key) => key.id === 'key_ada_read')!;
    expect(readOnly).toMatchObject({ type: 'v2', scopes: ['boards.read'], api_key: null });
    for (const key of page.data) {
      expect(Object.keys(key).sort()).toEqual([
        'api_key',
        'created_at',
        'id',
        'name',
        'scopes',
        'subscriptions',
        'type',
      ]);
      // What revoking it would stop (key-ownership.test.ts): nothing is subscribed here.
      expect(key.subscriptions).toEqual({ webhooks: 0, hooks: 0 });
    }
  });

  it('paginates the list', async () => {
    const first = await typedClient(server).apiKeys.list({ limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.hasMore).toBe(true);
    const seen = [];
    for await (const key of typedClient(server).apiKeys.list({ limit: 1 })) seen.push(key.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);
  });

  it('creates a v2 key with every non-opt-in scope by default, its secret shown once and stored hashed', async () => {
    const created = await typedClient(server).apiKeys.create({ name: 'laptop' });
    expect(created.id).toMatch(/^key_/);
    expect(created).toMatchObject({ type: 'v2', name: 'laptop', api_key: null });
    expect(created.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(created.scopes).not.toContain('email.send');
    expect(created.secret).toMatch(/^tw_live_[0-9a-f]{48}$/);
    expect(created).not.toHaveProperty('api_secret');

    const me = await typedClient(server, { apiKey: created.secret! }).me.get();
    expect(me).toMatchObject({ user_id: 'usr_ada', key: { id: created.id, type: 'v2' } });

    const listed = (await typedClient(server).apiKeys.list({ limit: 200 })).data.find(
      (key) => key.id === created.id,
    );
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('secret');
    const row = await server.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash('sha256').update(created.secret!).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.secret);
  });

  it('creates a v2 key with exactly the scopes asked for, opt-in ones included', async () => {
    // Only a caller holding email.send may grant it: the seeded legacy key holds every scope.
    const holder = typedClient(server, { accessToken: await seededLegacyToken() });
    const created = await holder.apiKeys.create({
      name: 'sender',
      scopes: ['email.send', 'boards.read'],
    });
    expect(created.scopes).toEqual(['email.send', 'boards.read']);
    const narrow = typedClient(server, { apiKey: created.secret! });
    await expect(narrow.teams.list()).resolves.toBeDefined();
    const error = await narrow.apiKeys.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect((error as InsufficientScopeError).details).toEqual({ required_scopes: ['keys.manage'] });
  });

  it('creates a legacy key+secret pair that the token endpoint exchanges', async () => {
    const created = await typedClient(server).apiKeys.create({ name: 'Make', type: 'legacy' });
    expect(created).toMatchObject({ type: 'legacy', name: 'Make' });
    expect(created.api_key).toMatch(/^[0-9A-Za-z]+$/);
    expect(created.api_secret).toMatch(/^[0-9A-Za-z]+$/);
    expect(created.scopes).toEqual([...DEFAULT_SCOPES]);
    expect(created).not.toHaveProperty('secret');

    const legacy = new LegacyClient({
      origin: server.origin,
      email: 'ada@example.com',
      apiKey: created.api_key!,
      apiSecret: created.api_secret!,
      apiKeyName: 'Make',
    });
    const token = await legacy.getToken();
    const me = await typedClient(server, { accessToken: token }).me.get();
    expect(me.user_id).toBe('usr_ada');
    expect(me).not.toHaveProperty('key');
  });

  it('rejects what it cannot create with a 400 naming the field, and creates nothing', async () => {
    const before = (await typedClient(server).apiKeys.list({ limit: 200 })).data.length;
    const cases: Array<[unknown, string]> = [
      [{ name: 'Zapier', type: 'legacy' }, 'name'],
      [{ name: 'x', scopes: ['boards.fly'] }, 'scopes[0]'],
      [{ name: 'x', scopes: [] }, 'scopes'],
      [{ name: '  ' }, 'name'],
      [{ name: 'x', secret: 'mine' }, 'secret'],
    ];
    for (const [body, path] of cases) {
      const answer = await readAnswer(await server.v2('/api-keys', { method: 'POST', body }));
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('validation_error');
      expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect((await typedClient(server).apiKeys.list({ limit: 200 })).data.length).toBe(before);
  });

  it('replays an idempotent creation instead of making a second key', async () => {
    const send = () =>
      server.v2('/api-keys', {
        method: 'POST',
        body: { name: 'once' },
        headers: { 'idempotency-key': 'k-once' },
      });
    const first = await readAnswer(await send());
    const second = await readAnswer(await send());
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.data).toEqual(first.body.data);
    const named = (await typedClient(server).apiKeys.list({ limit: 200 })).data.filter(
      (key) => key.name === 'once',
    );
    expect(named).toHaveLength(1);
  });

  it('revokes a v2 key: it stops working at once, even though it was just used', async () => {
    const created = await typedClient(server).apiKeys.create({ name: 'short-lived' });
    const doomed = typedClient(server, { apiKey: created.secret! });
    await expect(doomed.me.get()).resolves.toMatchObject({ user_id: 'usr_ada' });

    await expect(typedClient(server).apiKeys.delete(created.id)).resolves.toEqual({
      id: created.id,
      deleted: true,
      webhooks_disabled: 0,
      hooks_deleted: 0,
    });
    await expect(doomed.me.get()).rejects.toBeInstanceOf(AuthenticationError);
    const ids = (await typedClient(server).apiKeys.list({ limit: 200 })).data.map((key) => key.id);
    expect(ids).not.toContain(created.id);
  });

  it('revokes a legacy key: the v1 session tokens minted from it stop working on v1 and v2', async () => {
    const created = await typedClient(server).apiKeys.create({ name: 'Revoked', type: 'legacy' });
    const exchanged = await exchange({
      email: 'ada@example.com',
      api_key: created.api_key!,
      api_secret: created.api_secret!,
      api_key_name: 'Revoked',
    });
    const token = exchanged.body['x-access-token'] as string;
    expect((await server.v1('/teams', { token })).status).toBe(200);
    expect((await server.v2('/me', { token })).status).toBe(200);

    await typedClient(server).apiKeys.delete(created.id);
    const v1 = await readAnswer(await server.v1('/teams', { token }));
    expect(v1.status).toBe(401);
    expect(v1.body.error.code).toBe('unauthenticated');
    expect((await server.v2('/me', { token })).status).toBe(401);
    const again = await exchange({
      email: 'ada@example.com',
      api_key: created.api_key!,
      api_secret: created.api_secret!,
      api_key_name: 'Revoked',
    });
    expect(again.status).toBe(401);
  });

  it('lets a key revoke itself', async () => {
    const created = await typedClient(server).apiKeys.create({ name: 'self' });
    const self = typedClient(server, { apiKey: created.secret! });
    await expect(self.apiKeys.delete(created.id)).resolves.toEqual({
      id: created.id,
      deleted: true,
      webhooks_disabled: 0,
      hooks_deleted: 0,
    });
    await expect(self.me.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('answers 404 for a key of another user or no key at all, and revokes nothing', async () => {
    await expect(typedClient(server).apiKeys.delete('key_bob_full')).rejects.toBeInstanceOf(NotFoundError);
    await expect(typedClient(server).apiKeys.delete('key_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(typedClient(server, { apiKey: SECRETS.bobFull }).me.get()).resolves.toMatchObject({
      user_id: 'usr_bob',
    });
  });

  it('requires keys.manage for every operation', async () => {
    const readOnly = typedClient(server, { apiKey: SECRETS.adaBoardsRead });
    for (const call of [
      () => readOnly.apiKeys.list(),
      () => readOnly.apiKeys.create({ name: 'nope' }),
      () => readOnly.apiKeys.delete('key_ada_full'),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InsufficientScopeError);
    }
    expect((await server.v2('/api-keys', { key: null })).status).toBe(401);
  });
});
