import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOKEN_TTL_SECONDS } from '../src/index.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { readBody, startTestServer, type TestServer } from './helpers/server.ts';

let clock = new Date('2026-02-01T12:00:00.000Z');
let server: TestServer;
let token: string;

async function newToken(): Promise<string> {
  const response = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SECRETS.legacy),
  });
  expect(response.status).toBe(200);
  return (await readBody(response))['x-access-token'];
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  token = await newToken();
});
afterAll(() => server.close());

const get = async (path: string, init: { token?: string } = {}) => {
  const response = await server.v1(path, { token: init.token ?? token });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await readBody(response),
  };
};

/** Every v1 route but subscribe/unsubscribe, with a request that would succeed with a token. */
const EVERY_ROUTE = [
  ['GET', '/teams', undefined],
  ['GET', '/boards?teamId=team_acme', undefined],
  ['GET', '/lists?boardId=brd_acme', undefined],
  ['GET', '/items?listId=lst_todo', undefined],
  ['POST', '/items', { listId: 'lst_todo', title: 'x' }],
  [
    'POST',
    '/items/createFromEmail',
    { providerId: 'gmail', listId: 'lst_todo', messageId: 'abc123', threadId: 'abc123' },
  ],
  ['POST', '/items/markComplete', { itemId: 'tsk_1' }],
  ['POST', '/items/markIncomplete', { itemId: 'tsk_1' }],
  ['POST', '/items/assignTask', { itemId: 'tsk_1', assigneeEmail: 'ada@example.com' }],
  ['POST', '/items/unassignTask', { itemId: 'tsk_1', assigneeEmail: 'ada@example.com' }],
  ['POST', '/items/moveTaskToList', { itemId: 'tsk_1', listId: 'lst_doing' }],
] as const;

describe('v1 authentication', () => {
  it('answers 401 unauthenticated with the common error body when x-access-token is missing or wrong', async () => {
    for (const [method, path, body] of EVERY_ROUTE) {
      // An empty token sends no x-access-token header at all.
      for (const sent of ['', 'not.a.token']) {
        const response = await server.v1(path, { method, token: sent, body });
        expect(response.status, `${method} ${path}`).toBe(401);
        const { error } = await readBody(response);
        expect(error.code).toBe('unauthenticated');
        expect(typeof error.message).toBe('string');
        expect(error.request_id).toBe(response.headers.get('x-request-id'));
      }
    }
  });

  it('does not take a v2 bearer key in place of the session token', async () => {
    const response = await server.v1('/teams', { token: '', key: SECRETS.adaFull });
    expect(response.status).toBe(401);
  });

  it('refuses a session token once it has expired (20 minutes)', async () => {
    const fresh = await newToken();
    const issuedAt = clock;
    try {
      clock = new Date(issuedAt.getTime() + (SESSION_TOKEN_TTL_SECONDS - 1) * 1000);
      expect((await get('/teams', { token: fresh })).status).toBe(200);
      clock = new Date(issuedAt.getTime() + SESSION_TOKEN_TTL_SECONDS * 1000);
      const expired = await get('/teams', { token: fresh });
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('unauthenticated');
    } finally {
      clock = issuedAt;
    }
  });
});

describe('GET /teams', () => {
  it('answers every team of the user, paid or not, as bare {id, name} JSON', async () => {
    const { status, type, body } = await get('/teams');
    expect(status).toBe(200);
    expect(type).toBe('application/json; charset=utf-8');
    expect(body).toEqual([
      { id: 'team_acme', name: 'Acme' },
      { id: 'team_garage', name: 'Garage' },
    ]);
  });
});

describe('GET /boards', () => {
  it('lists the boards of a paid team as {id, name}', async () => {
    const { status, body } = await get('/boards?teamId=team_acme');
    expect(status).toBe(200);
    expect(body).toEqual([{ id: 'brd_acme', name: 'Roadmap' }]);
  });

  it('requires teamId', async () => {
    for (const query of ['', '?teamId=', '?team_id=team_acme']) {
      const { status, body } = await get(`/boards${query}`);
      expect(status, query).toBe(400);
      expect(body.error.code).toBe('validation_error');
      expect(body.error.details).toEqual([expect.objectContaining({ path: 'teamId' })]);
    }
  });

  it('answers 404 for an unknown team or one the user is not in, 402 for an unpaid team', async () => {
    for (const teamId of ['team_missing', 'team_umbrella']) {
      const { status, body } = await get(`/boards?teamId=${teamId}`);
      expect(status, teamId).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    const unpaid = await get('/boards?teamId=team_garage');
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.error.code).toBe('subscription_required');
    expect(unpaid.body.error.request_id).toMatch(/^req_/);
  });
});

describe('GET /lists', () => {
  it('lists a board in board order as {id, name}', async () => {
    const { status, type, body } = await get('/lists?boardId=brd_acme');
    expect(status).toBe(200);
    expect(type).toBe('application/json; charset=utf-8');
    expect(body).toEqual([
      { id: 'lst_todo', name: 'To do' },
      { id: 'lst_doing', name: 'Doing' },
      { id: 'lst_done', name: 'Done' },
    ]);
  });

  it('requires boardId, 404s unknown and foreign boards, 402s unpaid ones', async () => {
    const missing = await get('/lists');
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ path: 'boardId' })]);
    expect((await get('/lists?boardId=brd_missing')).status).toBe(404);
    expect((await get('/lists?boardId=brd_umbrella')).status).toBe(404);
    const unpaid = await get('/lists?boardId=brd_garage');
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.error.code).toBe('subscription_required');
  });

  it('answers the whole collection, however many pages v2 would need', async () => {
    const board = await readBody(
      await server.v2('/boards', { method: 'POST', body: { team_id: 'team_acme', name: 'Long board' } }),
    );
    const names = Array.from({ length: 205 }, (_, index) => `List ${String(index).padStart(3, '0')}`);
    for (const name of names) {
      const created = await server.v2(`/boards/${board.data.id}/lists`, { method: 'POST', body: { name } });
      expect(created.status).toBe(200);
    }
    const { body } = await get(`/lists?boardId=${board.data.id}`);
    expect(body.map((list: { name: string }) => list.name)).toEqual(names);
    // The new board shows up in the team's boards too.
    expect((await get('/boards?teamId=team_acme')).body).toContainEqual({
      id: board.data.id,
      name: 'Long board',
    });
  });
});
