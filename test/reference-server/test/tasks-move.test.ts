import type { Task } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, startTestServer, type TestServer } from './helpers/server.ts';
import { tasksSeed } from './tasks-seed.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: tasksSeed });
});
afterAll(() => server.close());

const call = async (path: string, init?: Parameters<TestServer['v2']>[1]) =>
  readAnswer(await server.v2(path, init));
const post = (path: string, body?: unknown) => call(path, { method: 'POST', body });
const reorder = (id: string, body: unknown) => post(`/tasks/${id}/reorder`, body);
const move = (id: string, body: unknown) => post(`/tasks/${id}/move`, body);

async function newList(boardId = 'brd_acme'): Promise<string> {
  return (await post(`/boards/${boardId}/lists`, { name: 'scratch' })).body.data.id;
}

/** A fresh list holding tasks with these titles, top to bottom; answers title → id. */
async function listOf(...titles: string[]): Promise<{ listId: string; id: Record<string, string> }> {
  const listId = await newList();
  const id: Record<string, string> = {};
  for (const title of titles) {
    id[title] = (await post('/tasks', { list_id: listId, title, position: 'bottom' })).body.data.id;
  }
  return { listId, id };
}

async function order(listId: string): Promise<string[]> {
  return (await call(`/tasks?list_id=${listId}`)).body.data.map((task: Task) => task.title);
}

describe('POST /tasks/{id}/reorder', () => {
  it('moves a task to the top, and reports a repeat as persisted (it stands where asked)', async () => {
    const { listId, id } = await listOf('a', 'b', 'c', 'd');
    const moved = await reorder(id.c!, { position: 'top' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toEqual({ id: id.c, after_task_id: null, position_index: 0, persisted: true });
    expect(await order(listId)).toEqual(['c', 'a', 'b', 'd']);
    const again = await reorder(id.c!, { position: 'top' });
    expect(again.body.data).toEqual({ id: id.c, after_task_id: null, position_index: 0, persisted: true });
  });

  it('moves a task to the bottom, and reports a repeat as persisted (it stands where asked)', async () => {
    const { listId, id } = await listOf('a', 'b', 'c', 'd');
    const moved = await reorder(id.a!, { position: 'bottom' });
    expect(moved.body.data).toEqual({ id: id.a, after_task_id: id.d, position_index: 3, persisted: true });
    expect(await order(listId)).toEqual(['b', 'c', 'd', 'a']);
    const again = await reorder(id.a!, { position: 'bottom' });
    expect(again.body.data).toEqual({ id: id.a, after_task_id: id.d, position_index: 3, persisted: true });
  });

  it('moves a task below an anchor, up or down, with or without a free slot', async () => {
    const { listId, id } = await listOf('a', 'b', 'c', 'd', 'e');
    const up = await reorder(id.e!, { after_task_id: id.a });
    expect(up.body.data).toEqual({ id: id.e, after_task_id: id.a, position_index: 1, persisted: true });
    expect(await order(listId)).toEqual(['a', 'e', 'b', 'c', 'd']);
    const down = await reorder(id.a!, { after_task_id: id.c });
    expect(down.body.data).toEqual({ id: id.a, after_task_id: id.c, position_index: 3, persisted: true });
    expect(await order(listId)).toEqual(['e', 'b', 'c', 'a', 'd']);
    const last = await reorder(id.e!, { after_task_id: id.d });
    expect(last.body.data).toEqual({ id: id.e, after_task_id: id.d, position_index: 4, persisted: true });
    expect(await order(listId)).toEqual(['b', 'c', 'a', 'd', 'e']);
    const same = await reorder(id.e!, { after_task_id: id.d });
    expect(same.body.data).toEqual({ id: id.e, after_task_id: id.d, position_index: 4, persisted: true });
  });

  it('lets the anchor win over position', async () => {
    const { listId, id } = await listOf('a', 'b', 'c');
    const { body } = await reorder(id.a!, { after_task_id: id.b, position: 'top' });
    expect(body.data).toMatchObject({ after_task_id: id.b, position_index: 1, persisted: true });
    expect(await order(listId)).toEqual(['b', 'a', 'c']);
  });

  it('counts position_index among the tasks still listed (archived ones leave the count)', async () => {
    const { listId, id } = await listOf('a', 'b', 'c', 'd');
    await post(`/tasks/${id.b}/archive`);
    const { body } = await reorder(id.d!, { after_task_id: id.a });
    expect(body.data).toEqual({ id: id.d, after_task_id: id.a, position_index: 1, persisted: true });
    expect(await order(listId)).toEqual(['a', 'd', 'c']);
    // With only an archived task between them, c already stands right below d.
    const noop = await reorder(id.c!, { after_task_id: id.d });
    expect(noop.body.data).toEqual({ id: id.c, after_task_id: id.d, position_index: 2, persisted: true });
  });

  it('rejects the task itself or a task of another list as anchor (400), an unknown anchor (404), an empty body', async () => {
    const { id } = await listOf('a', 'b');
    const self = await reorder(id.a!, { after_task_id: id.a });
    expect(self.status).toBe(400);
    expect(self.body.error.details).toEqual([expect.objectContaining({ path: 'after_task_id' })]);
    const elsewhere = await reorder(id.a!, { after_task_id: 'tsk_1' });
    expect(elsewhere.status).toBe(400);
    expect((await reorder(id.a!, { after_task_id: 'tsk_secret' })).status).toBe(404);
    expect((await reorder(id.a!, { after_task_id: 'tsk_nope' })).status).toBe(404);
    expect((await reorder(id.a!, {})).status).toBe(400);
    expect((await reorder('tsk_secret', { position: 'top' })).status).toBe(404);
  });

  it('serialises concurrent reorders of one list: each answer is true to the order it produced', async () => {
    const titles = Array.from({ length: 12 }, (_, index) => `t${index}`);
    const { listId, id } = await listOf('anchor', ...titles);
    const answers = await Promise.all(
      titles.map((title) => reorder(id[title]!, { after_task_id: id.anchor })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ after_task_id: id.anchor, position_index: 1 });
    }
    const final = await order(listId);
    expect(final[0]).toBe('anchor');
    expect([...final].sort()).toEqual(['anchor', ...titles].sort());
    const tops = await Promise.all(titles.map((title) => reorder(id[title]!, { position: 'top' })));
    for (const answer of tops)
      expect(answer.body.data).toMatchObject({ after_task_id: null, position_index: 0 });
    expect(new Set(await order(listId)).size).toBe(titles.length + 1);
  });
});

describe('POST /tasks/{id}/move', () => {
  it('moves a task to the top of another list by default, and answers the moved Task', async () => {
    const source = await listOf('a', 'b');
    const target = await listOf('x', 'y');
    const { status, body } = await move(source.id.a!, { list_id: target.listId });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: source.id.a, list_id: target.listId, list_name: 'scratch' });
    expect(await order(source.listId)).toEqual(['b']);
    expect(await order(target.listId)).toEqual(['a', 'x', 'y']);
  });

  it('places the moved task at the bottom or below an anchor of the destination', async () => {
    const source = await listOf('a', 'b');
    const target = await listOf('x', 'y');
    await move(source.id.a!, { list_id: target.listId, position: 'bottom' });
    await move(source.id.b!, { list_id: target.listId, after_task_id: target.id.x, position: 'bottom' });
    expect(await order(target.listId)).toEqual(['x', 'b', 'y', 'a']);
  });

  it('treats a move to the current list as a no-op: same answer, same place', async () => {
    const { listId, id } = await listOf('a', 'b', 'c');
    const { status, body } = await move(id.a!, { list_id: listId, position: 'bottom' });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: id.a, list_id: listId });
    expect(await order(listId)).toEqual(['a', 'b', 'c']);
  });

  it('onto another board: drops the old board’s custom values and follows the board type', async () => {
    const id = (await post('/tasks', { list_id: 'lst_todo', title: 'travels' })).body.data.id;
    await call(`/tasks/${id}`, {
      method: 'PATCH',
      body: { custom_fields: [{ field_id: 'cf_text', value: 'x' }] },
    });
    const toSales = await move(id, { list_id: 'lst_won' });
    expect(toSales.body.data).toMatchObject({
      board_id: 'brd_sales',
      board_name: 'Pipeline',
      list_id: 'lst_won',
      list_name: 'Won',
      content_type: 'sale',
      custom_fields: [],
      deal: { value: null, source: null, close_date: null, loss_reason: null },
    });
    const back = await move('tsk_deal', { list_id: 'lst_doing' });
    expect(back.body.data).toMatchObject({
      board_id: 'brd_acme',
      content_type: 'task',
      deal: null,
      custom_fields: [],
    });
  });

  it('rejects an anchor outside the destination, 404s a list the caller cannot see, 402s an unpaid one', async () => {
    const source = await listOf('a', 'b');
    const target = await listOf('x');
    const anchorInSource = await move(source.id.a!, { list_id: target.listId, after_task_id: source.id.b });
    expect(anchorInSource.status).toBe(400);
    expect(anchorInSource.body.error.details).toEqual([expect.objectContaining({ path: 'after_task_id' })]);
    expect((await move(source.id.a!, { list_id: 'lst_secret' })).status).toBe(404);
    expect((await move(source.id.a!, { list_id: 'lst_nope' })).status).toBe(404);
    expect((await move(source.id.a!, { list_id: 'lst_garage' })).status).toBe(402);
    expect((await move('tsk_secret', { list_id: target.listId })).status).toBe(404);
    expect(await order(source.listId)).toEqual(['a', 'b']);
  });
});
