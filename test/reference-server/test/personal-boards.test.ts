// GET /v2/personal-boards (not in the spec, which lists boards by team only): the caller's own boards, so a
// client can offer them as a task's place (the extension's "Personal" in its team picker).
import { InsufficientScopeError } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed } from './helpers/fixtures.ts';
import { failure, startTestServer, type TestServer, typedClient } from './helpers/server.ts';

const TASKS_ONLY = 'tw_test_ada_tasks_only_0123456789';

const seed = {
  ...fixtureSeed,
  boards: [
    ...fixtureSeed.boards,
    {
      id: 'brd_ada_zed',
      team_id: null,
      owner_id: 'usr_ada',
      name: 'Zed',
      lists: [{ id: 'lst_zed', name: 'Inbox' }],
    },
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

describe('GET /personal-boards', () => {
  it('lists the caller’s own boards by name, no team board and nobody else’s, paginated', async () => {
    const boards = [];
    for await (const board of typedClient(server).boards.listPersonal({ limit: 1 })) boards.push(board);
    expect(boards.map((board) => board.id)).toEqual(['brd_ada_own', 'brd_ada_zed']);
    expect(boards[0]).toMatchObject({
      name: 'Mine',
      team_id: null,
      board_type: 'private',
      subscription: null,
    });
  });

  it('offers boards a task can be made on', async () => {
    const task = await typedClient(server).tasks.create({ list_id: 'lst_zed', title: 'Mine alone' });
    expect(task).toMatchObject({ board_id: 'brd_ada_zed', list_id: 'lst_zed' });
  });

  it('needs boards.read', async () => {
    const error = await failure(typedClient(server, { apiKey: TASKS_ONLY }).boards.listPersonal());
    expect(error).toBeInstanceOf(InsufficientScopeError);
  });
});
