import { describe, expect, it } from 'vitest';
import { parseSeed, SeedError } from '../src/index.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed } from './helpers/fixtures.ts';
import { readBody } from './helpers/server.ts';

describe('seed format', () => {
  it('fills left-out fields with their empty values', () => {
    const seed = parseSeed({
      users: [{ id: 'usr_a', email: 'a@example.com' }],
      teams: [{ id: 'team_a', name: 'A' }],
      boards: [{ id: 'brd_a', team_id: 'team_a', name: 'Board', lists: [{ id: 'lst_a', name: 'L' }] }],
      tasks: [{ id: 'tsk_a', list_id: 'lst_a', title: 'T' }],
    });
    expect(seed.users[0]).toEqual({ id: 'usr_a', email: 'a@example.com', display_name: null });
    expect(seed.teams[0]).toMatchObject({ members: [], subscription: null });
    expect(seed.tasks[0]).toMatchObject({
      notes: null,
      shade: 'none',
      completed: false,
      due_at: null,
      thread_ids: [],
      custom_fields: [],
      deal: null,
    });
    expect(seed.mailboxes).toEqual([]);
  });

  it('names the path of every unknown key and unknown reference', () => {
    const broken = structuredClone(fixtureSeed) as unknown as Record<string, Record<string, unknown>[]>;
    broken['tasks']![0]!['colour'] = 'red';
    broken['teams']![0]!['members'] = ['usr_nobody'];
    expect(() => parseSeed(broken)).toThrow(SeedError);
    expect(() => parseSeed(broken)).toThrow('tasks[0].colour: unknown key');
    delete broken['tasks']![0]!['colour'];
    expect(() => parseSeed(broken)).toThrow('teams[0].members[0]: unknown user usr_nobody');
  });
});

describe('demo workspace', () => {
  it('loads with --demo and answers with its printed credentials', async () => {
    const { startServer, DEMO_CREDENTIALS } = await import('../src/index.ts');
    const server = await startServer({ port: 0, ...(await freshDatabase()), demo: true });
    try {
      const headers = { authorization: `Bearer ${DEMO_CREDENTIALS.v2Secret}` };
      const teams = await readBody(await fetch(`${server.origin}/v2/teams`, { headers }));
      expect(teams.data).toEqual([expect.objectContaining({ name: 'Northwind Studio' })]);
      const boards = await readBody(
        await fetch(`${server.origin}/v2/boards?team_id=${teams.data[0].id}`, { headers }),
      );
      expect(boards.data.map((board: { board_type: string }) => board.board_type).sort()).toEqual([
        'sales',
        'shared',
      ]);
      const token = await fetch(
        `${server.origin}/auth/api_token?${new URLSearchParams({
          email: DEMO_CREDENTIALS.email,
          api_key: DEMO_CREDENTIALS.legacyApiKey,
          api_secret: DEMO_CREDENTIALS.legacyApiSecret,
          api_key_name: DEMO_CREDENTIALS.legacyKeyName,
        })}`,
        { method: 'POST' },
      );
      expect(token.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
