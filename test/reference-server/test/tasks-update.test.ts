import type { Task } from '@threadwork/shared/schemas';
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
const post = (path: string, body?: unknown, key?: string) => call(path, { method: 'POST', body, key });
const patch = (id: string, body: unknown, key?: string) =>
  call(`/tasks/${id}`, { method: 'PATCH', body, key });

async function newTask(listId = 'lst_todo', title = 'task'): Promise<string> {
  return (await post('/tasks', { list_id: listId, title })).body.data.id;
}

describe('PATCH /tasks/{id}', () => {
  it('sets and clears the shade, answering the full Task', async () => {
    const id = await newTask();
    const red = await patch(id, { shade: 'red' });
    expect(red.status).toBe(200);
    expect(red.body.data).toMatchObject({ id, shade: 'red', title: 'task', list_id: 'lst_todo' });
    expect((await patch(id, { shade: 'none' })).body.data.shade).toBe('none');
    expect((await patch(id, { shade: 'mauve' })).status).toBe(400);
    expect((await patch(id, {})).status).toBe(400);
  });

  it('sets values of every type, changing only the fields named', async () => {
    const id = await newTask();
    await patch(id, {
      custom_fields: [
        { field_id: 'cf_prio', value: ['opt_high', 'opt_low'] },
        { field_id: 'cf_text', value: 'hello' },
      ],
    });
    const { status, body } = await patch(id, {
      custom_fields: [
        { field_id: 'cf_state', value: ['opt_open'] },
        { field_id: 'cf_amount', value: 12.5 },
        { field_id: 'cf_done', value: true },
        { field_id: 'cf_when', value: '2026-04-01' },
        { field_id: 'cf_text', value: 'changed' },
      ],
    });
    expect(status).toBe(200);
    // In the board's field order; cf_prio kept although this PATCH did not name it.
    expect(body.data.custom_fields).toEqual([
      { field_id: 'cf_prio', value: ['opt_high', 'opt_low'] },
      { field_id: 'cf_state', value: ['opt_open'] },
      { field_id: 'cf_text', value: 'changed' },
      { field_id: 'cf_amount', value: 12.5 },
      { field_id: 'cf_done', value: true },
      { field_id: 'cf_when', value: '2026-04-01' },
    ]);
    expect((await call(`/tasks/${id}`)).body.data.custom_fields).toEqual(body.data.custom_fields);
  });

  it('clears one field with null or [] and leaves the others', async () => {
    const id = await newTask();
    await patch(id, {
      custom_fields: [
        { field_id: 'cf_prio', value: ['opt_high'] },
        { field_id: 'cf_text', value: 'x' },
        { field_id: 'cf_amount', value: 3 },
      ],
    });
    const { body } = await patch(id, {
      custom_fields: [
        { field_id: 'cf_prio', value: [] },
        { field_id: 'cf_text', value: null },
      ],
    });
    expect(body.data.custom_fields).toEqual([{ field_id: 'cf_amount', value: 3 }]);
  });

  it('rejects an AI field, a second status option and wrong value types, with paths', async () => {
    const id = await newTask();
    const cases: [unknown, string][] = [
      [{ field_id: 'cf_reply', value: ['opt_needs_reply'] }, 'custom_fields[0].field_id'],
      [{ field_id: 'cf_state', value: ['opt_open', 'opt_closed'] }, 'custom_fields[0].value'],
      [{ field_id: 'cf_prio', value: 'opt_high' }, 'custom_fields[0].value'],
      [{ field_id: 'cf_amount', value: '12' }, 'custom_fields[0].value'],
      [{ field_id: 'cf_done', value: 'yes' }, 'custom_fields[0].value'],
      [{ field_id: 'cf_when', value: 'next week' }, 'custom_fields[0].value'],
      [{ field_id: 'cf_text', value: 5 }, 'custom_fields[0].value'],
    ];
    for (const [entry, path] of cases) {
      const { status, body } = await patch(id, { custom_fields: [entry] });
      expect(status, JSON.stringify(entry)).toBe(400);
      expect(body.error.code).toBe('validation_error');
      expect(body.error.details).toEqual([expect.objectContaining({ path })]);
    }
    expect((await call(`/tasks/${id}`)).body.data.custom_fields).toEqual([]);
  });

  it('answers 404 naming a field of another board or none, and writes nothing of the PATCH', async () => {
    const id = await newTask();
    for (const unknown of ['cf_source', 'cf_nope']) {
      const { status, body } = await patch(id, {
        shade: 'blue',
        custom_fields: [
          { field_id: 'cf_text', value: 'fine' },
          { field_id: unknown, value: 'web' },
        ],
      });
      expect(status).toBe(404);
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toBe(`custom field ${unknown} was not found`);
    }
    const task = (await call(`/tasks/${id}`)).body.data;
    expect(task.shade).toBe('none');
    expect(task.custom_fields).toEqual([]);
  });

  it('answers 404 naming an option its field does not have, and writes nothing', async () => {
    const id = await newTask();
    const { status, body } = await patch(id, {
      custom_fields: [{ field_id: 'cf_prio', value: ['opt_high', 'opt_open'] }],
    });
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toContain('option opt_open');
    expect((await call(`/tasks/${id}`)).body.data.custom_fields).toEqual([]);
  });

  it('needs customfields.write to send custom_fields, not to change the shade', async () => {
    const id = await newTask();
    const denied = await patch(
      id,
      { custom_fields: [{ field_id: 'cf_text', value: 'x' }] },
      KEYS.adaTasksOnly,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.required_scopes).toEqual(['customfields.write']);
    expect((await patch(id, { shade: 'teal' }, KEYS.adaTasksOnly)).status).toBe(200);
  });

  it('404s a task of another team', async () => {
    expect((await patch('tsk_secret', { shade: 'red' })).status).toBe(404);
  });
});

describe('POST /tasks/{id}/complete', () => {
  it('completes the task and answers it; completing again still answers it', async () => {
    const id = await newTask();
    const first = await post(`/tasks/${id}/complete`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id, completed: true });
    const again = await post(`/tasks/${id}/complete`);
    expect(again.status).toBe(200);
    expect(again.body.data.completed).toBe(true);
    expect((await post('/tasks/tsk_secret/complete')).status).toBe(404);
  });
});

describe('POST /tasks/{id}/threads', () => {
  it('links threads in order, sets first_thread from the first, and ignores a repeated link', async () => {
    const id = await newTask();
    const first = await post(`/tasks/${id}/threads`, { thread_id: THREADS.invoice });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ id, thread_ids: [THREADS.invoice] });
    await post(`/tasks/${id}/threads`, { thread_id: THREADS.quote });
    const repeat = await post(`/tasks/${id}/threads`, { thread_id: THREADS.invoice });
    expect(repeat.body.data).toEqual({ id, thread_ids: [THREADS.invoice, THREADS.quote] });
    const task = (await call(`/tasks/${id}`)).body.data;
    expect(task.thread_ids).toEqual([THREADS.invoice, THREADS.quote]);
    expect(task.first_thread).toMatchObject({ title: 'Invoice 42', from: 'billing@vendor.test' });
  });

  it('archives the thread when asked', async () => {
    const id = await newTask();
    await post(`/tasks/${id}/threads`, { thread_id: THREADS.quote, archive: true });
    const thread = (await call(`/email-threads/${THREADS.quote}?include=messages`)).body.data;
    expect(thread.messages.flatMap((message: { labels: string[] }) => message.labels)).not.toContain('INBOX');
  });

  it('404s a thread not in the mailbox; needs email.metadata.read', async () => {
    const id = await newTask();
    expect((await post(`/tasks/${id}/threads`, { thread_id: 'ffffffffffff0000' })).status).toBe(404);
    const denied = await post(`/tasks/${id}/threads`, { thread_id: THREADS.quote }, KEYS.adaTasksOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.required_scopes).toEqual(['email.metadata.read']);
    expect((await call(`/tasks/${id}`)).body.data.thread_ids).toEqual([]);
  });
});

describe('archive and delete', () => {
  it('archiving takes the task out of its list but keeps it readable by id', async () => {
    const id = await newTask('lst_doing', 'to archive');
    const { status, body } = await post(`/tasks/${id}/archive`);
    expect(status).toBe(200);
    expect(body.data.id).toBe(id);
    const listed = (await call('/tasks?list_id=lst_doing')).body.data.map((task: Task) => task.id);
    expect(listed).not.toContain(id);
    expect((await call('/tasks?board_id=brd_acme')).body.data.map((task: Task) => task.id)).not.toContain(id);
    expect((await call(`/tasks/${id}`)).status).toBe(200);
  });

  it('deleting answers { id, deleted: true }, then the task is 404 everywhere', async () => {
    const id = await newTask('lst_doing', 'to delete');
    const { status, body } = await call(`/tasks/${id}`, { method: 'DELETE' });
    expect(status).toBe(200);
    expect(body.data).toEqual({ id, deleted: true });
    expect((await call(`/tasks/${id}`)).status).toBe(404);
    expect((await call(`/tasks/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await patch(id, { shade: 'red' })).status).toBe(404);
    expect((await call('/tasks?list_id=lst_doing')).body.data.map((task: Task) => task.id)).not.toContain(id);
  });
});
