import nock from 'nock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  InternalServerError,
  LegacyClient,
  type LegacyClientOptions,
  RequestValidationError,
  type StoredToken,
  ThreadworkClient,
  TOKEN_LIFETIME_MS,
  TOKEN_REFRESH_MARGIN_MS,
  tokenExpiresAt,
  tokenNeedsRefresh,
  tokenRenewAt,
} from '../src/index.ts';
import { type Answer, errorAnswer, expectRequests, ORIGIN, task } from './client-fixtures.ts';
import { v1Item } from './schema-examples.ts';

const CREDENTIALS = {
  email: 'ada@example.com',
  api_key: 'ak_9f8e7d',
  api_secret: 'as_1a2b3c',
  api_key_name: 'Zapier',
};
const ISSUED_AT = Date.parse('2026-01-05T10:00:00Z');

/** An unsigned JWT with the given claims: the client only reads `exp`. */
function jwt(claims: Record<string, unknown>): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

const tokenAt = (issuedAt: number, label: string) =>
  jwt({ sub: 'usr_ada', label, iat: issuedAt / 1000, exp: issuedAt / 1000 + 20 * 60 });

const tokenAnswer = (token: string): Answer => ({ body: { 'x-access-token': token } });
const bare = (body: unknown): Answer => ({ body });

let now = ISSUED_AT;

function legacy(options: Partial<LegacyClientOptions> = {}) {
  return new LegacyClient({
    origin: ORIGIN,
    email: CREDENTIALS.email,
    apiKey: CREDENTIALS.api_key,
    apiSecret: CREDENTIALS.api_secret,
    apiKeyName: CREDENTIALS.api_key_name,
    now: () => now,
    ...options,
  });
}

beforeAll(() => {
  nock.disableNetConnect();
});

beforeEach(() => {
  now = ISSUED_AT;
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(() => {
  vi.restoreAllMocks();
  nock.cleanAll();
});

describe('token exchange', () => {
  it('posts the four parameters in the query string and in the JSON body', async () => {
    const token = tokenAt(ISSUED_AT, 'first');
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer(token)]);
    expect(await legacy().getToken()).toBe(token);

    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.query).toEqual(CREDENTIALS);
    expect(recorded[0]?.body).toEqual(CREDENTIALS);
    expect(recorded[0]?.headers['content-type']).toBe('application/json');
    expect(recorded[0]?.headers['x-access-token']).toBeUndefined();
  });

  it('caches the token until a minute before its exp, on the injected clock', async () => {
    const first = tokenAt(ISSUED_AT, 'first');
    const second = tokenAt(ISSUED_AT + 19 * 60_000, 'second');
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer(first), tokenAnswer(second)]);
    const client = legacy();
    const expiresAt = ISSUED_AT + 20 * 60_000;

    expect(await client.getToken()).toBe(first);
    now = expiresAt - TOKEN_REFRESH_MARGIN_MS - 1;
    expect(await client.getToken()).toBe(first);
    expect(recorded).toHaveLength(1);

    now = expiresAt - TOKEN_REFRESH_MARGIN_MS;
    expect(await client.getToken()).toBe(second);
    expect(recorded).toHaveLength(2);
  });

  it('assumes the documented lifetime when the token has no readable exp', async () => {
    const recorded = expectRequests('POST', '/auth/api_token', [
      tokenAnswer('opaque-token'),
      tokenAnswer('next'),
    ]);
    const client = legacy();
    expect(await client.getToken()).toBe('opaque-token');
    now = ISSUED_AT + TOKEN_LIFETIME_MS - TOKEN_REFRESH_MARGIN_MS - 1;
    expect(await client.getToken()).toBe('opaque-token');
    now += 1;
    expect(await client.getToken()).toBe('next');
    expect(recorded).toHaveLength(2);
  });

  it('shares one exchange between concurrent callers', async () => {
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer('t1'), tokenAnswer('t2')]);
    const client = legacy();
    expect(await Promise.all([client.getToken(), client.getToken(), client.getToken()])).toEqual([
      't1',
      't1',
      't1',
    ]);
    expect(recorded).toHaveLength(1);
  });

  it('exchanges again when asked to refresh', async () => {
    expectRequests('POST', '/auth/api_token', [tokenAnswer('t1'), tokenAnswer('t2')]);
    const client = legacy();
    expect(await client.getToken()).toBe('t1');
    expect(await client.getToken({ refresh: true })).toBe('t2');
  });

  it('turns a 401 from the token endpoint into AuthenticationError with the service message', async () => {
    expectRequests('POST', '/auth/api_token', [
      {
        status: 401,
        body: {
          error: { code: 'unauthenticated', message: 'api_secret does not match', request_id: 'req_t' },
        },
      },
    ]);
    const error = await legacy()
      .getToken()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, message: 'api_secret does not match', requestId: 'req_t' });
  });

  it('still gives AuthenticationError when the 401 body is not the error envelope', async () => {
    expectRequests('POST', '/auth/api_token', [{ status: 401, body: 'Unauthorized' }]);
    await expect(legacy().getToken()).rejects.toMatchObject({
      name: 'AuthenticationError',
      message: 'HTTP 401: Unauthorized',
    });
  });

  it('refuses empty credentials before calling, naming the field', async () => {
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer('t1')]);
    const error = await legacy({ apiSecret: '' })
      .getToken()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).details).toEqual([
      expect.objectContaining({ path: 'api_secret' }),
    ]);
    expect(recorded).toEqual([]);
  });

  it('reuses a token its store holds until renewAt, and stores every new one', async () => {
    const first = tokenAt(ISSUED_AT, 'first');
    const second = tokenAt(ISSUED_AT + 19 * 60_000, 'second');
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer(second)]);
    let stored: StoredToken | null = { token: first, renewAt: ISSUED_AT + 19 * 60_000 };
    const writes: StoredToken[] = [];
    const store = {
      get: async () => stored,
      set: async (next: StoredToken) => {
        writes.push(next);
        stored = next;
      },
    };
    // A new client (a restarted worker) takes the stored token without an exchange.
    expect(await legacy({ tokenStore: store }).getToken()).toBe(first);
    expect(recorded).toHaveLength(0);

    now = ISSUED_AT + 19 * 60_000;
    expect(await legacy({ tokenStore: store }).getToken()).toBe(second);
    expect(recorded).toHaveLength(1);
    expect(writes).toEqual([{ token: second, renewAt: ISSUED_AT + 39 * 60_000 - TOKEN_REFRESH_MARGIN_MS }]);
  });

  it('exchanges when the store holds nothing, and on refresh whatever it holds', async () => {
    const recorded = expectRequests('POST', '/auth/api_token', [tokenAnswer('t1'), tokenAnswer('t2')]);
    const valid = { token: 'kept', renewAt: ISSUED_AT + 60_000 };
    expect(await legacy({ tokenStore: { get: () => null, set: () => {} } }).getToken()).toBe('t1');
    const client = legacy({ tokenStore: { get: () => valid, set: () => {} } });
    expect(await client.getToken({ refresh: true })).toBe('t2');
    expect(recorded).toHaveLength(2);
  });

  it('decides renewal from exp, or from the documented lifetime when there is none', () => {
    const token = tokenAt(ISSUED_AT, 'x');
    const expiresAt = ISSUED_AT + 20 * 60_000;
    expect(tokenRenewAt(token, ISSUED_AT + 5_000)).toBe(expiresAt - TOKEN_REFRESH_MARGIN_MS);
    expect(tokenRenewAt('opaque', ISSUED_AT)).toBe(ISSUED_AT + TOKEN_LIFETIME_MS - TOKEN_REFRESH_MARGIN_MS);
    expect(tokenNeedsRefresh(token, expiresAt - TOKEN_REFRESH_MARGIN_MS - 1)).toBe(false);
    expect(tokenNeedsRefresh(token, expiresAt - TOKEN_REFRESH_MARGIN_MS)).toBe(true);
    expect(tokenNeedsRefresh(undefined, ISSUED_AT)).toBe(true);
    expect(tokenNeedsRefresh('', ISSUED_AT)).toBe(true);
    // Kept without its receipt time, an opaque token is used until the service refuses it.
    expect(tokenNeedsRefresh('opaque', ISSUED_AT + 10 * TOKEN_LIFETIME_MS)).toBe(false);
  });

  it('reads exp from the JWT payload without verifying it', () => {
    expect(tokenExpiresAt(jwt({ exp: 1_767_607_200 }))).toBe(1_767_607_200_000);
    expect(tokenExpiresAt(jwt({ sub: 'no-exp' }))).toBeUndefined();
    expect(tokenExpiresAt('not-a-jwt')).toBeUndefined();
    expect(tokenExpiresAt('a.%%%.c')).toBeUndefined();
  });
});

interface V1Case {
  name: string;
  call: (client: LegacyClient) => Promise<unknown>;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  answer: unknown;
  result: unknown;
}

const subscription = {
  id: 'sub_1',
  action: 'createOnList',
  entityId: 'lst_todo',
  webhookURL: 'https://hooks.zapier.com/1',
  apiService: 'zapier',
};

const v1Operations: V1Case[] = [
  {
    name: 'teams',
    call: (c) => c.teams(),
    method: 'GET',
    path: '/api/v1/teams',
    answer: [{ id: 'team_acme', name: 'Acme' }],
    result: [{ id: 'team_acme', name: 'Acme' }],
  },
  {
    name: 'boards',
    call: (c) => c.boards('team_acme'),
    method: 'GET',
    path: '/api/v1/boards',
    query: { teamId: 'team_acme' },
    answer: [{ id: 'brd_ops', name: 'Operations' }],
    result: [{ id: 'brd_ops', name: 'Operations' }],
  },
  {
    name: 'lists',
    call: (c) => c.lists('brd_ops'),
    method: 'GET',
    path: '/api/v1/lists',
    query: { boardId: 'brd_ops' },
    answer: [{ id: 'lst_todo', name: 'To do' }],
    result: [{ id: 'lst_todo', name: 'To do' }],
  },
  {
    name: 'items of a board',
    call: (c) => c.items({ boardId: 'brd_ops' }),
    method: 'GET',
    path: '/api/v1/items',
    query: { boardId: 'brd_ops' },
    answer: [v1Item()],
    result: [v1Item()],
  },
  {
    name: 'items of a list',
    call: (c) => c.items({ listId: 'lst_todo' }),
    method: 'GET',
    path: '/api/v1/items',
    query: { listId: 'lst_todo' },
    answer: [v1Item()],
    result: [v1Item()],
  },
  {
    name: 'createItem',
    call: (c) => c.createItem({ listId: 'lst_todo', title: 'Call Bob', dueDate: '2026-02-01T09:00:00Z' }),
    method: 'POST',
    path: '/api/v1/items',
    body: { listId: 'lst_todo', title: 'Call Bob', dueDate: '2026-02-01T09:00:00Z' },
    answer: { id: 'tsk_new' },
    result: { id: 'tsk_new' },
  },
  {
    name: 'createFromEmail',
    call: (c) =>
      c.createFromEmail({
        providerId: 'gmail',
        listId: 'lst_todo',
        messageId: '18c2f0a1b2c3d4e5',
        threadId: '18c2f0a1b2c3d4e5',
        archive: true,
        listItem: { contentType: 'sale' },
      }),
    method: 'POST',
    path: '/api/v1/items/createFromEmail',
    body: {
      providerId: 'gmail',
      listId: 'lst_todo',
      messageId: '18c2f0a1b2c3d4e5',
      threadId: '18c2f0a1b2c3d4e5',
      archive: true,
      listItem: { contentType: 'sale' },
    },
    answer: { id: 'tsk_mail' },
    result: { id: 'tsk_mail' },
  },
  {
    name: 'markComplete',
    call: (c) => c.markComplete('tsk_1'),
    method: 'POST',
    path: '/api/v1/items/markComplete',
    body: { itemId: 'tsk_1' },
    answer: { success: true },
    result: { success: true },
  },
  {
    name: 'markIncomplete',
    call: (c) => c.markIncomplete('tsk_1'),
    method: 'POST',
    path: '/api/v1/items/markIncomplete',
    body: { itemId: 'tsk_1' },
    answer: { success: true },
    result: { success: true },
  },
  {
    name: 'assignTask',
    call: (c) => c.assignTask('tsk_1', 'grace@example.com'),
    method: 'POST',
    path: '/api/v1/items/assignTask',
    body: { itemId: 'tsk_1', assigneeEmail: 'grace@example.com' },
    answer: { success: true },
    result: { success: true },
  },
  {
    name: 'unassignTask',
    call: (c) => c.unassignTask('tsk_1', 'grace@example.com'),
    method: 'POST',
    path: '/api/v1/items/unassignTask',
    body: { itemId: 'tsk_1', assigneeEmail: 'grace@example.com' },
    answer: { success: true },
    result: { success: true },
  },
  {
    name: 'moveTaskToList',
    call: (c) => c.moveTaskToList('tsk_1', 'lst_done'),
    method: 'POST',
    path: '/api/v1/items/moveTaskToList',
    body: { itemId: 'tsk_1', listId: 'lst_done' },
    answer: { success: true },
    result: { success: true },
  },
  {
    name: 'subscribe',
    call: (c) =>
      c.subscribe('items', {
        email: 'ada@example.com',
        action: 'createOnList',
        entityId: 'lst_todo',
        webhookURL: 'https://hooks.zapier.com/1',
        apiService: 'zapier',
      }),
    method: 'POST',
    path: '/api/v1/items/subscribe',
    body: {
      email: 'ada@example.com',
      action: 'createOnList',
      entityId: 'lst_todo',
      webhookURL: 'https://hooks.zapier.com/1',
      apiService: 'zapier',
    },
    answer: subscription,
    result: subscription,
  },
  {
    name: 'unsubscribe',
    call: (c) => c.unsubscribe('lists', 'sub_1'),
    method: 'POST',
    path: '/api/v1/lists/unsubscribe',
    body: { subscriptionId: 'sub_1' },
    answer: '',
    result: undefined,
  },
];

describe('every v1 operation', () => {
  it.each(v1Operations.map((operation) => [operation.name, operation] as const))(
    '%s sends the documented request with the session token',
    async (_name, operation) => {
      const token = tokenAt(ISSUED_AT, 'session');
      expectRequests('POST', '/auth/api_token', [tokenAnswer(token)]);
      const recorded = expectRequests(operation.method, operation.path, [
        operation.answer === '' ? { status: 200, body: '' } : bare(operation.answer),
      ]);

      expect(await operation.call(legacy())).toEqual(operation.result);
      expect(recorded).toHaveLength(1);
      const [request] = recorded;
      expect(request?.method).toBe(operation.method);
      expect(request?.query).toEqual(operation.query ?? {});
      expect(request?.body).toEqual(operation.body);
      expect(request?.headers['x-access-token']).toBe(token);
      expect(request?.headers['authorization']).toBeUndefined();
      // v1 has no idempotency keys.
      expect(request?.headers['idempotency-key']).toBeUndefined();
      expect(request?.headers['content-type']).toBe(
        operation.body === undefined ? undefined : 'application/json',
      );
    },
  );

  it('covers every public method', () => {
    const methods = Object.getOwnPropertyNames(LegacyClient.prototype).filter(
      (name) => name !== 'constructor' && name !== 'getToken',
    );
    const covered = new Set(v1Operations.map((operation) => operation.name.split(' ')[0]));
    expect(methods.sort()).toEqual([...covered].sort());
  });

  it('keeps fields of a bare answer that it does not know', async () => {
    expectRequests('POST', '/auth/api_token', [tokenAnswer('t1')]);
    expectRequests('GET', '/api/v1/items', [bare([{ ...v1Item(), priority: 'high' }])]);
    const [item] = await legacy().items({ listId: 'lst_todo' });
    expect(item).toMatchObject({ id: 'tsk_01hq3v', priority: 'high' });
  });

  it('validates bodies before sending: nothing reaches the service', async () => {
    const tokenCalls = expectRequests('POST', '/auth/api_token', [tokenAnswer('t1')]);
    const recorded = expectRequests('POST', '/api/v1/items', [bare({ id: 'x' })]);
    const client = legacy();
    await expect(client.createItem({ listId: 'lst_todo', title: '  ' })).rejects.toMatchObject({
      details: [expect.objectContaining({ path: 'title' })],
    });
    await expect(client.items({ boardId: 'b', listId: 'l' } as never)).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    await expect(client.subscribe('boards' as never, subscription as never)).rejects.toMatchObject({
      message: expect.stringContaining('Invalid request object'),
    });
    expect(recorded).toEqual([]);
    expect(tokenCalls).toEqual([]);
  });
});

describe('401 on a v1 call', () => {
  it('refreshes the token once and repeats the call', async () => {
    const tokens = expectRequests('POST', '/auth/api_token', [tokenAnswer('stale'), tokenAnswer('fresh')]);
    const recorded = expectRequests('POST', '/api/v1/items/markComplete', [
      errorAnswer(401, 'unauthenticated'),
      bare({ success: true }),
    ]);
    expect(await legacy().markComplete('tsk_1')).toEqual({ success: true });
    expect(tokens).toHaveLength(2);
    expect(recorded.map((request) => request.headers['x-access-token'])).toEqual(['stale', 'fresh']);
  });

  it('throws AuthenticationError when the fresh token is refused too', async () => {
    const tokens = expectRequests('POST', '/auth/api_token', [tokenAnswer('t1'), tokenAnswer('t2')]);
    const recorded = expectRequests('GET', '/api/v1/teams', [
      errorAnswer(401, 'unauthenticated'),
      errorAnswer(401, 'unauthenticated'),
    ]);
    await expect(legacy().teams()).rejects.toBeInstanceOf(AuthenticationError);
    expect(tokens).toHaveLength(2);
    expect(recorded).toHaveLength(2);
  });
});

describe('retries on v1', () => {
  it('retries reads', async () => {
    expectRequests('POST', '/auth/api_token', [tokenAnswer('t1')]);
    const recorded = expectRequests('GET', '/api/v1/teams', [errorAnswer(503, 'internal_error'), bare([])]);
    expect(await legacy().teams()).toEqual([]);
    expect(recorded).toHaveLength(2);
  });

  it('never retries writes, which carry no idempotency key', async () => {
    expectRequests('POST', '/auth/api_token', [tokenAnswer('t1')]);
    const recorded = expectRequests('POST', '/api/v1/items', [
      errorAnswer(503, 'internal_error'),
      bare({ id: 'tsk_2' }),
    ]);
    await expect(legacy().createItem({ listId: 'lst_todo', title: 'x' })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(recorded).toHaveLength(1);
  });
});

describe('the v1 token on v2', () => {
  it('serves the v2 client, which asks for a new one after a 401', async () => {
    const tokens = expectRequests('POST', '/auth/api_token', [tokenAnswer('old'), tokenAnswer('new')]);
    const recorded = expectRequests('POST', '/v2/tasks/tsk_1/complete', [
      errorAnswer(401, 'unauthenticated'),
      { body: { data: task(), meta: { request_id: 'req_ok' } } },
    ]);
    const session = legacy();
    const client = new ThreadworkClient({
      baseUrl: `${ORIGIN}/v2`,
      accessToken: (context) => session.getToken(context),
    });
    await client.tasks.complete('tsk_1');
    expect(tokens).toHaveLength(2);
    expect(recorded.map((request) => request.headers['x-access-token'])).toEqual(['old', 'new']);
  });
});
