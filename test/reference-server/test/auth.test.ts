import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOKEN_TTL_SECONDS } from '../src/index.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { readBody, startTestServer, type TestServer } from './helpers/server.ts';

let clock = new Date('2026-02-01T12:00:00.000Z');
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
});
afterAll(() => server.close());

async function requestToken(init: { query?: Record<string, string>; body?: Record<string, string> }) {
  const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
  return fetch(`${server.origin}/auth/api_token${query}`, {
    method: 'POST',
    ...(init.body
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }
      : {}),
  });
}

async function newToken(): Promise<string> {
  const response = await requestToken({ body: { ...SECRETS.legacy } });
  expect(response.status).toBe(200);
  return (await readBody(response))['x-access-token'];
}

describe('v2 bearer keys', () => {
  it('answers 401 with a request id when the key is missing or wrong', async () => {
    for (const key of [null, 'tw_not_a_key']) {
      const response = await server.v2('/me', { key });
      expect(response.status).toBe(401);
      const body = await readBody(response);
      expect(body.error.code).toBe('unauthenticated');
      expect(body.error.request_id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(response.headers.get('x-request-id')).toBe(body.error.request_id);
    }
  });

  it('GET /me shows the user and the key with its scopes', async () => {
    const response = await server.v2('/me', { key: SECRETS.adaBoardsRead });
    const body = await readBody(response);
    expect(body.data).toEqual({
      user_id: 'usr_ada',
      email: 'ada@example.com',
      display_name: 'Ada Lovelace',
      key: { id: 'key_ada_read', type: 'v2', scopes: ['boards.read'] },
    });
    expect(body.meta.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('answers 403 insufficient_scope naming the missing scope', async () => {
    const response = await server.v2('/boards/brd_acme/lists', { key: SECRETS.adaBoardsRead });
    expect(response.status).toBe(403);
    const body = await readBody(response);
    expect(body.error.code).toBe('insufficient_scope');
    expect(body.error.message).toContain('lists.read');
    expect(body.error.details).toEqual({ required_scopes: ['lists.read'] });
  });
});

describe('v1 session tokens', () => {
  it('are issued from query-string parameters and from a JSON body', async () => {
    const viaQuery = await requestToken({ query: { ...SECRETS.legacy } });
    expect(viaQuery.status).toBe(200);
    const token = (await readBody(viaQuery))['x-access-token'] as string;
    expect(token.split('.')).toHaveLength(3);
    expect(await newToken()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('refuse wrong credentials with 401 naming the field to fix', async () => {
    const cases = [
      [{ ...SECRETS.legacy, api_secret: 'wrong' }, 'api_secret'],
      [{ ...SECRETS.legacy, api_key: 'wrong' }, 'api_key'],
      [{ ...SECRETS.legacy, api_key_name: 'Other' }, 'api_key_name'],
      [{ ...SECRETS.legacy, email: 'nobody@example.com' }, 'email'],
    ] as const;
    for (const [body, field] of cases) {
      const response = await requestToken({ body });
      expect(response.status).toBe(401);
      const error = (await readBody(response)).error;
      expect(error.code).toBe('unauthenticated');
      expect(error.details).toEqual({ field });
    }
    const missing = await requestToken({ query: { email: 'ada@example.com' } });
    expect(missing.status).toBe(400);
    expect((await readBody(missing)).error.code).toBe('validation_error');
  });

  it('authenticate on v2, where GET /me omits the key', async () => {
    const token = await newToken();
    const me = await server.v2('/me', { token });
    expect(me.status).toBe(200);
    const data = (await readBody(me)).data;
    expect(data.user_id).toBe('usr_ada');
    expect(data).not.toHaveProperty('key');
    const teams = await server.v2('/teams', { token });
    expect(teams.status).toBe(200);
  });

  it('expire after 20 minutes', async () => {
    const token = await newToken();
    const issuedAt = clock;
    try {
      clock = new Date(issuedAt.getTime() + (SESSION_TOKEN_TTL_SECONDS - 1) * 1000);
      expect((await server.v2('/me', { token })).status).toBe(200);
      clock = new Date(issuedAt.getTime() + SESSION_TOKEN_TTL_SECONDS * 1000);
      const expired = await server.v2('/me', { token });
      expect(expired.status).toBe(401);
      expect((await readBody(expired)).error.code).toBe('unauthenticated');
    } finally {
      clock = issuedAt;
    }
  });

  it('reject a tampered token', async () => {
    const [header, payload, signature] = (await newToken()).split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_bob' })).toString('base64url');
    expect((await server.v2('/me', { token: `${header}.${forged}.${signature}` })).status).toBe(401);
  });
});
