import type { Task } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, readBody, startTestServer, type TestServer } from './helpers/server.ts';
import { KEYS, THREADS, tasksSeed } from './tasks-seed.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: tasksSeed });
});
afterAll(() => server.close());

const call = async (path: string, init?: Parameters<TestServer['v2']>[1]) =>
  readAnswer(await server.v2(path, init));
const post = (path: string, body?: unknown) => call(path, { method: 'POST', body });
const titles = (tasks: Task[]) => tasks.map((task) => task.title);

/** A fresh shared board on Acme with lists named as given; answers their ids in order. */
async function newBoard(...lists: string[]): Promise<{ boardId: string; listIds: string[] }> {
  const board = await post('/boards', { team_id: 'team_acme', name: 'Scratch' });
  const listIds: string[] = [];
  for (const name of lists)
    listIds.push((await post(`/boards/${board.body.data.id}/lists`, { name })).body.data.id);
  return { boardId: board.body.data.id, listIds };
}

/** Creates tasks at the bottom of a list, in the order given; answers their ids. */
async function fill(listId: string, ...names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const title of names)
    ids.push((await post('/tasks', { list_id: listId, title, position: 'bottom' })).body.data.id);
  return ids;
}

describe('GET /tasks', () => {
  it('lists a list top to bottom', async () => {
    const { listIds } = await newBoard('L');
    await fill(listIds[0]!, 'a', 'b', 'c');
    const { status, body } = await call(`/tasks?list_id=${listIds[0]}`);
    expect(status).toBe(200);
    expect(titles(body.data)).toEqual(['a', 'b', 'c']);
    expect(body.meta.pagination).toEqual({ next_cursor: null, has_more: false, limit: 50 });
  });

  it('answers a list read again as it is now: after any change, and to each reader as theirs', async () => {
    const { listIds } = await newBoard('L');
    const [first] = await fill(listIds[0]!, 'a', 'b');
    const path = `/tasks?list_id=${listIds[0]}`;
    const answers = [];
    for (let index = 0; index < 2; index++) {
      const response = await server.v2(path);
      answers.push({ id: response.headers.get('x-request-id'), body: await readBody(response) });
    }
    expect(answers[1]!.body.data).toEqual(answers[0]!.body.data);
    for (const answer of answers) expect(answer.body.meta.request_id).toBe(answer.id);
    expect(answers[1]!.id).not.toBe(answers[0]!.id);

    expect((await post(`/tasks/${first}/complete`)).status).toBe(200);
    expect((await call(path)).body.data.map((task: Task) => task.completed)).toEqual([true, false]);
    // A write elsewhere (the list's name, shown on each task) is seen too.
    expect((await call(`/lists/${listIds[0]}`, { method: 'PATCH', body: { name: 'Renamed' } })).status).toBe(
      200,
    );
    expect((await call(path)).body.data.map((task: Task) => task.list_name)).toEqual(['Renamed', 'Renamed']);
    // Another reader is answered for themselves, not with the page kept for ada.
    expect((await call(path, { key: KEYS.bobFull })).status).toBe(404);
  });

  it('lists a board by list order, then by position within each list', async () => {
    const { boardId, listIds } = await newBoard('first', 'second');
    await fill(listIds[1]!, 's1', 's2');
    await fill(listIds[0]!, 'f1', 'f2');
    const { body } = await call(`/tasks?board_id=${boardId}`);
    expect(titles(body.data)).toEqual(['f1', 'f2', 's1', 's2']);
    expect(body.data.map((task: Task) => task.list_name)).toEqual(['first', 'first', 'second', 'second']);
  });

  it('lists completed tasks unless completed=false; completed=true lists only those', async () => {
    const { listIds } = await newBoard('L');
    const [first] = await fill(listIds[0]!, 'done', 'open');
    await post(`/tasks/${first}/complete`);
    expect(titles((await call(`/tasks?list_id=${listIds[0]}`)).body.data)).toEqual(['done', 'open']);
    expect(titles((await call(`/tasks?list_id=${listIds[0]}&completed=false`)).body.data)).toEqual(['open']);
    expect(titles((await call(`/tasks?list_id=${listIds[0]}&completed=true`)).body.data)).toEqual(['done']);
  });

  it('pages through a list with limit and cursor, for a list and for a board', async () => {
    const { boardId, listIds } = await newBoard('one', 'two');
    await fill(listIds[0]!, 't1', 't2', 't3');
    await fill(listIds[1]!, 't4', 't5');
    for (const query of [`list_id=${listIds[0]}`, `board_id=${boardId}`]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 5; page++) {
        const { body }: { body: { data: Task[]; meta: { pagination: { next_cursor: string | null } } } } =
          await call(`/tasks?${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(body.data.length).toBeLessThanOrEqual(2);
        seen.push(...titles(body.data));
        cursor = body.meta.pagination.next_cursor;
        if (!cursor) break;
      }
      expect(seen).toEqual(query.startsWith('list') ? ['t1', 't2', 't3'] : ['t1', 't2', 't3', 't4', 't5']);
    }
  });

  it('rejects a cursor it did not issue, and a query with both or neither of list_id and board_id', async () => {
    const badCursor = await call('/tasks?list_id=lst_todo&cursor=bogus');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.details).toEqual([expect.objectContaining({ path: 'cursor' })]);
    for (const query of ['', '?list_id=lst_todo&board_id=brd_acme']) {
      const { status, body } = await call(`/tasks${query}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('validation_error');
    }
  });

  it('404s a list or board of another team, 402s an unpaid team, 403s without tasks.read', async () => {
    for (const query of ['list_id=lst_secret', 'board_id=brd_umbrella', 'list_id=lst_nope']) {
      expect((await call(`/tasks?${query}`)).status).toBe(404);
    }
    const unpaid = await call('/tasks?list_id=lst_garage');
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.error.code).toBe('subscription_required');
    const denied = await call('/tasks?list_id=lst_todo', { key: KEYS.adaBoardsRead });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.required_scopes).toEqual(['tasks.read']);
  });
});

describe('GET /tasks: links and custom values of each page', () => {
  it("shows every task's threads and values as GET /tasks/{id} does, on every page and filter", async () => {
    const { boardId, listIds } = await newBoard('L', 'M');
    const field = await post(`/boards/${boardId}/custom-fields`, { name: 'Remark', type: 'text' });
    const ids = await fill(listIds[0]!, 't1', 't2', 't3', 't4', 't5', 't6', 't7');
    const [other] = await fill(listIds[1]!, 'elsewhere');
    // Links and values at both ends of every page, on tasks not shown too, and on another list.
    for (const id of [ids[0]!, ids[1]!, ids[3]!, ids[5]!, ids[6]!, other!]) {
      await post(`/tasks/${id}/threads`, { thread_id: THREADS.invoice });
      const patch = await call(`/tasks/${id}`, {
        method: 'PATCH',
        body: { custom_fields: [{ field_id: field.body.data.id, value: `remark of ${id}` }] },
      });
      expect(patch.status).toBe(200);
    }
    await post(`/tasks/${ids[0]!}/threads`, { thread_id: THREADS.quote });
    await post(`/tasks/${ids[2]!}/archive`);
    await post(`/tasks/${ids[4]!}/complete`);

    for (const filter of ['', '&completed=false', '&completed=true']) {
      for (const limit of [1, 2, 3, 50]) {
        const listed: Task[] = [];
        let cursor: string | null = null;
        do {
          const after: string = cursor === null ? '' : `&cursor=${cursor}`;
          const page = await call(`/tasks?list_id=${listIds[0]}&limit=${limit}${filter}${after}`);
          expect(page.status).toBe(200);
          listed.push(...page.body.data);
          cursor = page.body.meta.pagination.next_cursor;
        } while (cursor !== null);
        const expected = filter === '&completed=true' ? 1 : filter === '' ? 6 : 5;
        expect(listed).toHaveLength(expected);
        for (const task of listed) expect(task).toEqual((await call(`/tasks/${task.id}`)).body.data);
      }
    }
    const linked = (await call(`/tasks?list_id=${listIds[0]}`)).body.data.filter(
      (task: Task) => task.thread_ids.length > 0,
    );
    expect(linked.map((task: Task) => task.title)).toEqual(['t1', 't2', 't4', 't6', 't7']);
    expect(linked[0].thread_ids).toEqual([THREADS.invoice, THREADS.quote]);
  });
});

describe('GET /tasks/{id}', () => {
  it('shows a seeded task with its thread snapshot and stored custom values', async () => {
    const { status, body } = await call('/tasks/tsk_seeded');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      id: 'tsk_seeded',
      list_id: 'lst_done',
      list_name: 'Done',
      thread_ids: [THREADS.seeded],
      first_thread: {
        title: 'Seeded thread',
        received_at: '2026-01-02T07:00:00.000Z',
        from: 'Eve <eve@client.test>',
      },
      custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }],
    });
  });

  it('shows the deal and contact of a sale card', async () => {
    const { body } = await call('/tasks/tsk_deal');
    expect(body.data).toMatchObject({
      content_type: 'sale',
      deal: { value: 1200, source: 'web', close_date: null, loss_reason: null },
      custom_fields: [{ field_id: 'cf_source', value: 'fair' }],
    });
  });

  it('404s a task of another team and an unknown one; 402s a task of an unpaid team', async () => {
    for (const id of ['tsk_secret', 'tsk_nope']) {
      const { status, body } = await call(`/tasks/${id}`);
      expect(status).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    expect((await call('/tasks/tsk_garage')).status).toBe(402);
  });

  it('hides ada’s personal board from a teammate', async () => {
    const own = (await post('/tasks', { list_id: 'lst_ada_own', title: 'private' })).body.data.id;
    expect((await call(`/tasks/${own}`)).status).toBe(200);
    expect((await call(`/tasks/${own}`, { key: KEYS.danFull })).status).toBe(404);
    expect((await call('/tasks?list_id=lst_ada_own', { key: KEYS.danFull })).status).toBe(404);
  });
});
