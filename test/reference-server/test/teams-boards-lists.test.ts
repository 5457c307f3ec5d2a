import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { readAnswer, readBody, startTestServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('teams', () => {
  it('lists every team of the caller with its subscription, paid or not', async () => {
    const { status, body } = await readAnswer(await server.v2('/teams'));
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { id: 'team_acme', name: 'Acme', subscription: { plan: 'pro', status: 'active', paid: true } },
      { id: 'team_garage', name: 'Garage', subscription: { plan: 'pro', status: 'cancelled', paid: false } },
    ]);
    expect(body.meta.pagination).toEqual({ next_cursor: null, has_more: false, limit: 50 });
  });

  it('pages with limit and cursor', async () => {
    const first = (await readAnswer(await server.v2('/teams?limit=1'))).body;
    expect(first.data.map((team: { id: string }) => team.id)).toEqual(['team_acme']);
    expect(first.meta.pagination).toMatchObject({ has_more: true, limit: 1 });
    const second = (
      await readAnswer(await server.v2(`/teams?limit=1&cursor=${first.meta.pagination.next_cursor}`))
    ).body;
    expect(second.data.map((team: { id: string }) => team.id)).toEqual(['team_garage']);
    expect(second.meta.pagination).toEqual({ next_cursor: null, has_more: false, limit: 1 });
  });

  it('rejects a limit outside 1–200', async () => {
    for (const limit of ['0', '201', 'ten']) {
      const { status, body } = await readAnswer(await server.v2(`/teams?limit=${limit}`));
      expect(status).toBe(400);
      expect(body.error.details[0].path).toBe('limit');
    }
  });

  it('gets one team, and 404s a team the caller is not in', async () => {
    expect((await readAnswer(await server.v2('/teams/team_garage'))).body.data.subscription.paid).toBe(false);
    const hidden = await readAnswer(await server.v2('/teams/team_umbrella'));
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
  });
});

describe('boards', () => {
  it('requires team_id', async () => {
    const { status, body } = await readAnswer(await server.v2('/boards'));
    expect(status).toBe(400);
    expect(body.error.details).toEqual([expect.objectContaining({ path: 'team_id' })]);
  });

  it('lists the boards of a paid team; 402 for an unpaid one; 404 for a foreign one', async () => {
    const paid = await readAnswer(await server.v2('/boards?team_id=team_acme'));
    expect(paid.body.data[0]).toEqual({
      id: 'brd_acme',
      name: 'Roadmap',
      board_type: 'shared',
      template: null,
      team_id: 'team_acme',
      subscription: { plan: 'pro', status: 'active', paid: true },
    });
    const unpaid = await readAnswer(await server.v2('/boards?team_id=team_garage'));
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.error.code).toBe('subscription_required');
    expect((await server.v2('/boards?team_id=team_umbrella')).status).toBe(404);
  });

  it('creates a shared board, gets it and renames it', async () => {
    const created = await readAnswer(
      await server.v2('/boards', { method: 'POST', body: { team_id: 'team_acme', name: 'Hiring' } }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Hiring', board_type: 'shared', team_id: 'team_acme' });
    expect(created.body.data.id).toMatch(/^brd_[0-9a-f]{24}$/);
    const id = created.body.data.id as string;
    expect((await readAnswer(await server.v2(`/boards/${id}`))).body.data.name).toBe('Hiring');
    const renamed = await readAnswer(
      await server.v2(`/boards/${id}`, { method: 'PATCH', body: { name: 'Recruiting' } }),
    );
    expect(renamed.body.data.name).toBe('Recruiting');
    expect((await readAnswer(await server.v2(`/boards/${id}`))).body.data.name).toBe('Recruiting');
  });

  it('answers 404 for boards of other teams and 402 for boards of unpaid teams, on every board route', async () => {
    for (const [path, method, body] of [
      ['/boards/brd_umbrella', 'GET', undefined],
      ['/boards/brd_umbrella', 'PATCH', { name: 'x' }],
      ['/boards/brd_umbrella/lists', 'GET', undefined],
      ['/boards/brd_umbrella/lists', 'POST', { name: 'x' }],
      ['/boards/brd_missing', 'GET', undefined],
      ['/lists/lst_secret', 'PATCH', { name: 'x' }],
    ] as const) {
      expect((await server.v2(path, { method, body })).status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await server.v2('/boards', { method: 'POST', body: { team_id: 'team_umbrella', name: 'x' } })).status,
    ).toBe(404);
    expect((await server.v2('/boards/brd_garage')).status).toBe(402);
    expect(
      (await server.v2('/boards', { method: 'POST', body: { team_id: 'team_garage', name: 'x' } })).status,
    ).toBe(402);
    expect((await server.v2('/lists/lst_garage', { method: 'PATCH', body: { name: 'x' } })).status).toBe(402);
  });

  it('treats bob (only in the unpaid team) as unpaid and never shows him Acme', async () => {
    expect((await server.v2('/boards/brd_acme', { key: SECRETS.bobFull })).status).toBe(404);
    expect((await server.v2('/boards?team_id=team_garage', { key: SECRETS.bobFull })).status).toBe(402);
  });
});

describe('lists', () => {
  it('lists a board in order and pages through it', async () => {
    const all = (await readAnswer(await server.v2('/boards/brd_acme/lists'))).body.data;
    expect(all).toEqual([
      { id: 'lst_todo', name: 'To do', board_id: 'brd_acme' },
      { id: 'lst_doing', name: 'Doing', board_id: 'brd_acme' },
      { id: 'lst_done', name: 'Done', board_id: 'brd_acme' },
    ]);
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const body = (await readAnswer(await server.v2(`/boards/brd_acme/lists${query}`))).body;
      ids.push(...body.data.map((list: { id: string }) => list.id));
      cursor = body.meta.pagination.next_cursor;
      if (!body.meta.pagination.has_more) break;
    }
    expect(ids).toEqual(['lst_todo', 'lst_doing', 'lst_done']);
  });

  it('creates a list at the end of the board and renames it', async () => {
    const board = (
      await readAnswer(
        await server.v2('/boards', { method: 'POST', body: { team_id: 'team_acme', name: 'Lists' } }),
      )
    ).body.data;
    const first = (
      await readAnswer(await server.v2(`/boards/${board.id}/lists`, { method: 'POST', body: { name: 'A' } }))
    ).body.data;
    await server.v2(`/boards/${board.id}/lists`, { method: 'POST', body: { name: 'B' } });
    expect(first).toMatchObject({ name: 'A', board_id: board.id });
    expect(first.id).toMatch(/^lst_/);
    const renamed = await readAnswer(
      await server.v2(`/lists/${first.id}`, { method: 'PATCH', body: { name: 'A1' } }),
    );
    expect(renamed.body.data).toEqual({ id: first.id, name: 'A1', board_id: board.id });
    const names = (await readAnswer(await server.v2(`/boards/${board.id}/lists`))).body.data.map(
      (list: { name: string }) => list.name,
    );
    expect(names).toEqual(['A1', 'B']);
  });

  it('requires lists.write to create', async () => {
    const response = await server.v2('/boards/brd_acme/lists', {
      method: 'POST',
      key: SECRETS.adaBoardsRead,
      body: { name: 'x' },
    });
    expect(response.status).toBe(403);
  });
});

describe('root', () => {
  it('answers a small index', async () => {
    const body = await readBody(await fetch(`${server.origin}/`));
    expect(body.roots).toEqual({ v2: '/v2', v1: '/api/v1', auth: '/auth/api_token' });
  });
});
