import { Task } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, startTestServer, type TestServer } from './helpers/server.ts';
import { KEYS, THREADS, tasksSeed } from './tasks-seed.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: tasksSeed });
});
afterAll(() => server.close());

const call = async (path: string, init?: Parameters<TestServer['v2']>[1]) =>
  readAnswer(await server.v2(path, init));
const create = (body: Record<string, unknown>, key?: string) => call('/tasks', { method: 'POST', body, key });
const titlesOf = async (listId: string) =>
  (await call(`/tasks?list_id=${listId}`)).body.data.map((task: Task) => task.title);

/** A fresh list for one test, so that tests do not see each other's tasks. */
async function newList(boardId = 'brd_acme'): Promise<string> {
  const { body } = await call(`/boards/${boardId}/lists`, { method: 'POST', body: { name: 'scratch' } });
  return body.data.id;
}

describe('POST /tasks: a plain task', () => {
  it('answers the created Task with every field', async () => {
    const { status, body } = await create({
      list_id: 'lst_todo',
      title: 'Write report',
      notes: 'by Friday',
      due_at: '2026-03-01T17:00:00+01:00',
    });
    expect(status).toBe(200);
    expect(Task.safeParse(body.data).success).toBe(true);
    expect(body.data).toEqual({
      id: expect.stringMatching(/^tsk_/),
      content_type: 'task',
      title: 'Write report',
      notes: 'by Friday',
      board_id: 'brd_acme',
      board_name: 'Roadmap',
      list_id: 'lst_todo',
      list_name: 'To do',
      completed: false,
      shade: 'none',
      custom_fields: [],
      due_at: '2026-03-01T16:00:00.000Z',
      created_at: expect.any(String),
      thread_ids: [],
      contact_id: null,
      deal: null,
      assignee: null,
      first_thread: null,
    });
    expect((await call(`/tasks/${body.data.id}`)).body.data).toEqual(body.data);
  });

  it('makes a sale card with an empty deal on a sales board', async () => {
    const { body } = await create({ list_id: 'lst_leads', title: 'New lead' });
    expect(body.data).toMatchObject({
      content_type: 'sale',
      contact_id: null,
      deal: { value: null, source: null, close_date: null, loss_reason: null },
    });
  });

  it('works on the caller’s personal board', async () => {
    const { status, body } = await create({ list_id: 'lst_ada_own', title: 'Mine' });
    expect(status).toBe(200);
    expect(body.data.board_id).toBe('brd_ada_own');
  });

  it('requires a title without thread_id, and tasks.write', async () => {
    const missing = await create({ list_id: 'lst_todo' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ path: 'title' })]);
    const readOnly = await create({ list_id: 'lst_todo', title: 'x' }, KEYS.adaBoardsRead);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.details.required_scopes).toEqual(['tasks.write']);
  });

  it('404s a list of another team and an unknown list; 402s a list of an unpaid team', async () => {
    for (const listId of ['lst_secret', 'lst_nope']) {
      const { status, body } = await create({ list_id: listId, title: 'x' });
      expect(status).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    const unpaid = await create({ list_id: 'lst_garage', title: 'x' });
    expect(unpaid.status).toBe(402);
    expect(unpaid.body.error.code).toBe('subscription_required');
  });

  it('creates once per Idempotency-Key and replays the same answer', async () => {
    const list = await newList();
    const headers = { 'idempotency-key': 'create-once-1' };
    const first = await call('/tasks', { method: 'POST', body: { list_id: list, title: 'Once' }, headers });
    const again = await call('/tasks', { method: 'POST', body: { list_id: list, title: 'Once' }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(await titlesOf(list)).toEqual(['Once']);
    const conflict = await call('/tasks', {
      method: 'POST',
      body: { list_id: list, title: 'Other' },
      headers,
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
  });
});

describe('POST /tasks: placement', () => {
  it('puts each new task on top by default, so several come out in reverse order', async () => {
    const list = await newList();
    for (const title of ['one', 'two', 'three']) await create({ list_id: list, title });
    expect(await titlesOf(list)).toEqual(['three', 'two', 'one']);
  });

  it('puts a task at the bottom with position=bottom', async () => {
    const list = await newList();
    for (const title of ['one', 'two', 'three']) await create({ list_id: list, title, position: 'bottom' });
    await create({ list_id: list, title: 'top', position: 'top' });
    expect(await titlesOf(list)).toEqual(['top', 'one', 'two', 'three']);
  });

  it('puts a task directly below after_task_id, which wins over position', async () => {
    const list = await newList();
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c']) {
      ids.push((await create({ list_id: list, title, position: 'bottom' })).body.data.id);
    }
    await create({ list_id: list, title: 'after a', after_task_id: ids[0], position: 'bottom' });
    await create({ list_id: list, title: 'after c', after_task_id: ids[2], position: 'top' });
    await create({ list_id: list, title: 'after a again', after_task_id: ids[0] });
    expect(await titlesOf(list)).toEqual(['a', 'after a again', 'after a', 'b', 'c', 'after c']);
  });

  it('rejects an anchor in another list (400), and 404s an unknown anchor or one the caller cannot see', async () => {
    const list = await newList();
    const elsewhere = await create({ list_id: list, title: 'x', after_task_id: 'tsk_1' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.details).toEqual([expect.objectContaining({ path: 'after_task_id' })]);
    for (const anchor of ['tsk_nope', 'tsk_secret']) {
      const { status, body } = await create({ list_id: list, title: 'x', after_task_id: anchor });
      expect(status).toBe(404);
      expect(body.error.message).toContain(anchor);
    }
    expect(await titlesOf(list)).toEqual([]);
  });
});

describe('POST /tasks: from a thread', () => {
  it('takes the title from the subject, links the thread and fills first_thread', async () => {
    const { status, body } = await create({ list_id: 'lst_todo', thread_id: THREADS.quote });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      title: 'Quote request',
      thread_ids: [THREADS.quote],
      first_thread: {
        title: 'Quote request',
        received_at: '2026-01-05T09:00:00.000Z',
        from: 'Bob Stone <bob@stone.test>',
      },
    });
  });

  it('lets a sent title override the subject; a sender without a name is shown by address', async () => {
    const { body } = await create({ list_id: 'lst_todo', thread_id: THREADS.invoice, title: 'Pay vendor' });
    expect(body.data.title).toBe('Pay vendor');
    expect(body.data.first_thread).toEqual({
      title: 'Invoice 42',
      received_at: '2026-02-01T08:30:00.000Z',
      from: 'billing@vendor.test',
    });
  });

  it('archives the thread (removes INBOX) only when asked', async () => {
    const labelsOf = async () => {
      const { body } = await call(`/email-threads/${THREADS.invoice}?include=messages`);
      return body.data.messages.flatMap((message: { labels: string[] }) => message.labels);
    };
    await create({ list_id: 'lst_todo', thread_id: THREADS.invoice });
    expect(await labelsOf()).toContain('INBOX');
    await create({ list_id: 'lst_todo', thread_id: THREADS.invoice, archive: true });
    expect(await labelsOf()).not.toContain('INBOX');
  });

  it('404s a thread that is not in the caller’s mailbox and creates nothing', async () => {
    const list = await newList();
    const { status, body } = await create({ list_id: list, thread_id: 'ffffffffffff0000' });
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
    expect(await titlesOf(list)).toEqual([]);
  });

  it('needs email.metadata.read when thread_id is sent (403 naming it), not otherwise', async () => {
    const denied = await create({ list_id: 'lst_todo', thread_id: THREADS.quote }, KEYS.adaTasksOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    expect(denied.body.error.details.required_scopes).toEqual(['email.metadata.read']);
    expect((await create({ list_id: 'lst_todo', title: 'plain' }, KEYS.adaTasksOnly)).status).toBe(200);
  });

  it('passes the mailbox’s 409 through when the caller has no connected mailbox', async () => {
    const { status, body } = await create({ list_id: 'lst_todo', thread_id: THREADS.quote }, KEYS.danFull);
    expect(status).toBe(409);
    expect(body.error.code).toBe('mailbox_not_connected');
  });

  it('rejects archive without thread_id', async () => {
    const { status, body } = await create({ list_id: 'lst_todo', title: 'x', archive: true });
    expect(status).toBe(400);
    expect(body.error.details).toEqual([expect.objectContaining({ path: 'archive' })]);
  });
});
