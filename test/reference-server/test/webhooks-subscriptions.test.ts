import { CreatedWebhookSubscription, V1Subscription, WebhookSubscription } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { readAnswer, readBody, startTestServer, type TestServer } from './helpers/server.ts';
import { v1Token } from './webhooks-support.ts';

describe('v2 webhook subscriptions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ allowInsecureWebhooks: true });
  });
  afterAll(() => server.close());

  async function create(body: unknown, key?: string) {
    const response = await server.v2('/webhooks/subscriptions', {
      method: 'POST',
      body,
      ...(key ? { key } : {}),
    });
    return readAnswer(response);
  }

  it('creates a subscription and shows its secret only in the creation answer', async () => {
    const created = await create({ target_url: 'https://hooks.example.com/in', events: ['task.created'] });
    expect(created.status).toBe(200);
    const data = CreatedWebhookSubscription.parse(created.body.data);
    expect(data).toMatchObject({
      target_url: 'https://hooks.example.com/in',
      events: ['task.created'],
      status: 'active',
      filters: { scope: 'tasked' },
    });
    expect(data.id).toMatch(/^wh_/);
    expect(data.secret.length).toBeGreaterThanOrEqual(32);

    const fetched = await readBody(await server.v2(`/webhooks/subscriptions/${data.id}`));
    expect(WebhookSubscription.parse(fetched.data).id).toBe(data.id);
    expect(fetched.data).not.toHaveProperty('secret');
  });

  it('lists only the caller’s own subscriptions, paginated', async () => {
    const bobs = await create(
      { target_url: 'https://bob.example.com/in', events: ['task.completed'] },
      SECRETS.bobFull,
    );
    expect(bobs.status).toBe(200);
    await create({ target_url: 'https://hooks.example.com/two', events: ['task.moved'] });

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query: string = cursor ? `?limit=1&cursor=${cursor}` : '?limit=1';
      const body = await readBody(await server.v2(`/webhooks/subscriptions${query}`));
      expect(body.meta.pagination.limit).toBe(1);
      seen.push(...body.data.map((subscription: { id: string }) => subscription.id));
      cursor = body.meta.pagination.next_cursor;
      if (!body.meta.pagination.has_more) break;
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(bobs.body.data.id);
  });

  it('answers 404 for another user’s subscription on every route', async () => {
    const bobs = await create(
      { target_url: 'https://bob.example.com/x', events: ['task.created'] },
      SECRETS.bobFull,
    );
    const id = bobs.body.data.id as string;
    const attempts = [
      server.v2(`/webhooks/subscriptions/${id}`),
      server.v2(`/webhooks/subscriptions/${id}`, { method: 'PATCH', body: { status: 'disabled' } }),
      server.v2(`/webhooks/subscriptions/${id}`, { method: 'DELETE' }),
      server.v2(`/webhooks/subscriptions/${id}/test`, { method: 'POST' }),
      server.v2(`/webhooks/subscriptions/${id}/rotate-secret`, { method: 'POST' }),
      server.v2(`/webhooks/subscriptions/${id}/deliveries`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect((await readBody(response)).error.code).toBe('not_found');
    }
    // Still there for its owner.
    expect((await server.v2(`/webhooks/subscriptions/${id}`, { key: SECRETS.bobFull })).status).toBe(200);
  });

  it('needs the webhooks.manage scope', async () => {
    const response = await server.v2('/webhooks/subscriptions', { key: SECRETS.adaBoardsRead });
    expect(response.status).toBe(403);
    expect((await readBody(response)).error.code).toBe('insufficient_scope');
  });

  it('updates events, filters and status; re-enabling clears the disabled reason', async () => {
    const { body } = await create({ target_url: 'https://hooks.example.com/p', events: ['task.created'] });
    const id = body.data.id as string;
    const patch = async (change: unknown) => {
      const response = await server.v2(`/webhooks/subscriptions/${id}`, { method: 'PATCH', body: change });
      return readAnswer(response);
    };

    const changed = await patch({
      events: ['task.moved', 'thread.reply_received'],
      filters: { scope: 'all' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      events: ['task.moved', 'thread.reply_received'],
      filters: { scope: 'all' },
    });

    const disabled = await patch({ status: 'disabled' });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });

    const enabled = await patch({ status: 'active', filters: null });
    expect(enabled.body.data).toMatchObject({ status: 'active', disabled_reason: null, filters: null });

    expect((await patch({})).status).toBe(400);
    expect((await patch({ events: ['task.exploded'] })).status).toBe(400);
  });

  it('deletes a subscription', async () => {
    const { body } = await create({ target_url: 'https://hooks.example.com/d', events: ['task.created'] });
    const id = body.data.id as string;
    const response = await server.v2(`/webhooks/subscriptions/${id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect((await readBody(response)).data).toEqual({ id, deleted: true });
    expect((await server.v2(`/webhooks/subscriptions/${id}`)).status).toBe(404);
  });

  it('rotates the secret, reporting when the previous one stops signing', async () => {
    const { body } = await create({ target_url: 'https://hooks.example.com/r', events: ['task.created'] });
    const response = await server.v2(`/webhooks/subscriptions/${body.data.id}/rotate-secret`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    const rotated = (await readBody(response)).data;
    expect(rotated.id).toBe(body.data.id);
    expect(rotated.secret).not.toBe(body.data.secret);
    const expiresIn = Date.parse(rotated.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('rejects requests that do not match the schemas', async () => {
    expect((await create({ target_url: 'https://x.example.com', events: [] })).status).toBe(400);
    expect((await create({ target_url: 'not a url', events: ['task.created'] })).status).toBe(400);
    const unknown = await create({
      target_url: 'https://x.example.com',
      events: ['task.created'],
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toContainEqual({ path: 'colour', message: 'unknown field' });
  });
});

describe('webhook target URLs', () => {
  const rejected = (body: { error: { code: string; details: Array<{ path: string }> } }, path: string) => {
    expect(body.error.code).toBe('validation_error');
    expect(body.error.details.map((detail) => detail.path)).toContain(path);
  };

  it('accept only https without --allow-insecure-webhooks, for v2 and v1 alike', async () => {
    const server = await startTestServer();
    try {
      const insecure = await server.v2('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: 'http://127.0.0.1:9/hook', events: ['task.created'] },
      });
      expect(insecure.status).toBe(400);
      rejected(await readBody(insecure), 'target_url');

      const secure = await server.v2('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: 'https://hooks.example.com/in', events: ['task.created'] },
      });
      expect(secure.status).toBe(200);
      const id = (await readBody(secure)).data.id;
      const patched = await server.v2(`/webhooks/subscriptions/${id}`, {
        method: 'PATCH',
        body: { target_url: 'http://localhost:9/hook' },
      });
      expect(patched.status).toBe(400);
      rejected(await readBody(patched), 'target_url');

      const token = await v1Token(server);
      const v1 = await server.v1('/items/subscribe', {
        method: 'POST',
        token,
        body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: 'http://127.0.0.1:9/hook' },
      });
      expect(v1.status).toBe(400);
      rejected(await readBody(v1), 'webhookURL');
    } finally {
      await server.close();
    }
  });

  it('accept http only on loopback hosts with --allow-insecure-webhooks', async () => {
    const server = await startTestServer({ allowInsecureWebhooks: true });
    try {
      const create = (target_url: string) =>
        server.v2('/webhooks/subscriptions', {
          method: 'POST',
          body: { target_url, events: ['task.created'] },
        });
      for (const url of [
        'http://127.0.0.1:9/a',
        'http://127.200.3.4/b',
        'http://localhost:8080/c',
        'http://[::1]:9/d',
      ]) {
        expect((await create(url)).status, url).toBe(200);
      }
      for (const url of [
        'http://example.com/a',
        'http://10.0.0.1/b',
        'http://128.0.0.1/c',
        'http://localhost.example.com/d',
      ]) {
        const response = await create(url);
        expect(response.status, url).toBe(400);
        rejected(await readBody(response), 'target_url');
      }
      const token = await v1Token(server);
      const v1 = await server.v1('/items/subscribe', {
        method: 'POST',
        token,
        body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: 'http://example.com/hook' },
      });
      expect(v1.status).toBe(400);
      rejected(await readBody(v1), 'webhookURL');
    } finally {
      await server.close();
    }
  });
});

describe('v1 hook subscriptions', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await v1Token(server);
  });
  afterAll(() => server.close());

  const subscribe = async (object: string, body: Record<string, unknown>) => {
    const response = await server.v1(`/${object}/subscribe`, {
      method: 'POST',
      token,
      body: {
        email: 'ada@example.com',
        webhookURL: 'https://hooks.zapier.example/abc',
        apiService: 'zapier',
        ...body,
      },
    });
    return readAnswer(response);
  };

  it('subscribes to an action on the entity the action watches', async () => {
    const onList = await subscribe('items', { action: 'createOnList', entityId: 'lst_todo' });
    expect(onList.status).toBe(200);
    expect(V1Subscription.parse(onList.body)).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      action: 'createOnList',
      entityId: 'lst_todo',
      webhookURL: 'https://hooks.zapier.example/abc',
      apiService: 'zapier',
    });
    const moved = await subscribe('lists', { action: 'movedToList', entityId: 'lst_done' });
    expect(moved.status).toBe(200);
    const completed = await subscribe('items', { action: 'itemCompleted', entityId: 'brd_acme' });
    expect(completed.status).toBe(200);
  });

  it('answers 400 when the action does not belong to the object', async () => {
    const wrongObject = await subscribe('items', { action: 'movedToList', entityId: 'lst_todo' });
    expect(wrongObject.status).toBe(400);
    expect(wrongObject.body.error.details).toContainEqual(expect.objectContaining({ path: 'action' }));
    expect((await subscribe('lists', { action: 'createOnList', entityId: 'lst_todo' })).status).toBe(400);
    expect((await subscribe('items', { action: 'itemExploded', entityId: 'brd_acme' })).status).toBe(400);
    expect((await subscribe('items', { action: 'createOnBoard' })).status).toBe(400);
  });

  it('answers 404 for an entity the user cannot see or of the wrong kind', async () => {
    const hidden = await subscribe('items', { action: 'createOnBoard', entityId: 'brd_umbrella' });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
    expect((await subscribe('items', { action: 'createOnList', entityId: 'lst_secret' })).status).toBe(404);
    // createOnList watches a list: a board id is not one.
    expect((await subscribe('items', { action: 'createOnList', entityId: 'brd_acme' })).status).toBe(404);
    expect((await subscribe('items', { action: 'itemDeleted', entityId: 'brd_nope' })).status).toBe(404);
  });

  it('unsubscribes with 200 and no body; an unknown id is 404', async () => {
    const created = await subscribe('items', { action: 'assignedTo', entityId: 'brd_acme' });
    const unsubscribe = (subscriptionId: string) =>
      server.v1('/items/unsubscribe', { method: 'POST', token, body: { subscriptionId } });

    const first = await unsubscribe(created.body.id);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');
    const again = await unsubscribe(created.body.id);
    expect(again.status).toBe(404);
    expect((await readBody(again)).error.code).toBe('not_found');
    expect((await server.v1('/items/unsubscribe', { method: 'POST', token, body: {} })).status).toBe(400);
  });

  it('needs a session token', async () => {
    const response = await server.v1('/items/subscribe', {
      method: 'POST',
      token: '',
      body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: 'https://x.example' },
    });
    expect(response.status).toBe(401);
    expect((await readBody(response)).error.code).toBe('unauthenticated');
  });
});
