// GET /v2/boards/{id}/members: who may be assigned a board's tasks, through the typed client (the name
// the Zapier app's and the extension's assignee pickers call), on team and personal boards.
import { InsufficientScopeError, NotFoundError, SubscriptionRequiredError } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { failure, readAnswer, startTestServer, type TestServer, typedClient } from './helpers/server.ts';

const TASKS_ONLY = 'tw_test_ada_tasks_only_0123456789';

const seed = {
  ...fixtureSeed,
  users: [
    ...fixtureSeed.users,
    { id: 'usr_dan', email: 'dan@example.com', display_name: null },
    { id: 'usr_eve', email: 'eve@example.com', display_name: 'Eve Moss' },
  ],
  teams: fixtureSeed.teams.map((team) =>
    team.id === 'team_acme' ? { ...team, members: ['usr_ada', 'usr_eve', 'usr_dan'] } : team,
  ),
  boards: [
    ...fixtureSeed.boards,
    { id: 'brd_ada_own', team_id: null, owner_id: 'usr_ada', name: 'Mine', lists: [] },
    { id: 'brd_bob_own', team_id: null, owner_id: 'usr_bob', name: 'Bob’s', lists: [] },
  ],
  api_keys: [
    ...fixtureSeed.api_keys,
    {
      id: 'key_ada_tasks',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'tasks',
      secret: TASKS_ONLY,
      scopes: ['tasks.read'],
    },
  ],
} satisfies SeedInput;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed });
});
afterAll(() => server.close());

const ada = () => typedClient(server);
const all = async (boardId: string, limit?: number) => {
  const members = [];
  for await (const member of ada().boards.members(boardId, limit ? { limit } : undefined))
    members.push(member);
  return members;
};

describe('GET /boards/{id}/members', () => {
  it('lists a team board’s members: its team’s, by email, a nameless one with null', async () => {
    expect(await all('brd_acme')).toEqual([
      { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
      { user_id: 'usr_dan', email: 'dan@example.com', display_name: null },
      { user_id: 'usr_eve', email: 'eve@example.com', display_name: 'Eve Moss' },
    ]);
  });

  it('lists a personal board’s owner as its one member', async () => {
    expect(await all('brd_ada_own')).toEqual([
      { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
    ]);
  });

  it('paginates like every list: limit and cursor, every member once', async () => {
    const first = await ada().boards.members('brd_acme', { limit: 2 });
    expect(first.data.map((member) => member.user_id)).toEqual(['usr_ada', 'usr_dan']);
    expect(first.hasMore).toBe(true);
    const raw = await readAnswer(await server.v2('/boards/brd_acme/members?limit=2'));
    expect(raw.body.meta.pagination).toMatchObject({ has_more: true, limit: 2 });
    const next = await readAnswer(
      await server.v2(`/boards/brd_acme/members?limit=2&cursor=${raw.body.meta.pagination.next_cursor}`),
    );
    expect(next.body.data.map((member: { user_id: string }) => member.user_id)).toEqual(['usr_eve']);
    expect(next.body.meta.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect((await all('brd_acme', 1)).map((member) => member.user_id)).toEqual([
      'usr_ada',
      'usr_dan',
      'usr_eve',
    ]);
    const bad = await readAnswer(await server.v2('/boards/brd_acme/members?limit=0'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
  });

  it('answers 404 for a board the caller cannot see or that does not exist, revealing no one', async () => {
    for (const id of ['brd_umbrella', 'brd_bob_own', 'brd_nope']) {
      const error = await failure(ada().boards.members(id));
      expect(error, id).toBeInstanceOf(NotFoundError);
      expect(error.message).toContain(id);
    }
  });

  it('is gated like the board: 402 for an unpaid team’s board', async () => {
    expect(await failure(ada().boards.members('brd_garage'))).toBeInstanceOf(SubscriptionRequiredError);
  });

  it('needs boards.read', async () => {
    const error = await failure(typedClient(server, { apiKey: TASKS_ONLY }).boards.members('brd_acme'));
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error.details).toEqual({ required_scopes: ['boards.read'] });
    await expect(
      typedClient(server, { apiKey: SECRETS.adaBoardsRead }).boards.members('brd_acme'),
    ).resolves.toBeDefined();
  });

  it('names exactly the people v1 assign accepts', async () => {
    const token = (
      await readAnswer(
        await fetch(`${server.origin}/auth/api_token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(SECRETS.legacy),
        }),
      )
    ).body['x-access-token'] as string;
    const assign = async (assigneeEmail: string) =>
      (
        await server.v1('/items/assignTask', {
          method: 'POST',
          token,
          body: { itemId: 'tsk_1', assigneeEmail },
        })
      ).status;
    for (const member of await all('brd_acme')) expect(await assign(member.email)).toBe(200);
    expect(await assign('carol@example.com')).toBe(400);
  });
});
