// The tasks domain below HTTP: the functions v1 and v2 both call, the events they record, and the
// number of queries a page of tasks costs.
import type { Task } from '@threadwork/shared/schemas';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import type { Executor } from '../src/db/executor.ts';
import { createCustomField, updateCustomField } from '../src/domain/custom-fields.ts';
import { ServiceError } from '../src/domain/errors.ts';
import {
  archiveTask,
  assignTask,
  completeTask,
  createTask,
  deleteTask,
  linkThread,
  moveTask,
  reorderTask,
  unassignTask,
  uncompleteTask,
  updateTask,
} from '../src/domain/tasks/commands.ts';
import { getTask, listAllTasks, listTasks } from '../src/domain/tasks/queries.ts';
import { toV1Item } from '../src/domain/tasks/view.ts';
import { loadSeed } from '../src/seed/load-seed.ts';
import { openTestDatabase } from './helpers/database.ts';
import { THREADS, tasksSeed } from './tasks-seed.ts';

const NOW = new Date('2026-03-10T12:00:00.000Z');
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  await loadSeed(handle.db, tasksSeed, NOW);
});
afterAll(() => handle.close());

const ada = 'usr_ada';
const write = <T>(work: (tx: Executor) => Promise<T>) => handle.db.transaction().execute(work);
const create = (title: string, listId = 'lst_doing') =>
  write((tx) => createTask(tx, ada, { list_id: listId, title }, NOW));

async function eventsOf(taskId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const rows = await handle.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('task_id', '=', taskId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ type: row.type, data: JSON.parse(row.data) }));
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return error;
}

describe('events', () => {
  it('records one event per change, with the task as it is after it', async () => {
    const task = await create('evented');
    await write((tx) => updateTask(tx, ada, task.id, { shade: 'red' }, NOW));
    await write((tx) => completeTask(tx, ada, task.id, NOW));
    await write((tx) => completeTask(tx, ada, task.id, NOW));
    await write((tx) => uncompleteTask(tx, ada, task.id, NOW));
    await write((tx) => uncompleteTask(tx, ada, task.id, NOW));
    await write((tx) => reorderTask(tx, ada, task.id, { position: 'bottom' }, NOW));
    await write((tx) => moveTask(tx, ada, task.id, { list_id: 'lst_doing' }, NOW));
    await write((tx) => moveTask(tx, ada, task.id, { list_id: 'lst_done' }, NOW));
    await write((tx) => archiveTask(tx, ada, task.id, NOW));
    await write((tx) => archiveTask(tx, ada, task.id, NOW));
    const last = await getTask(handle.db, ada, task.id);
    await write((tx) => deleteTask(tx, ada, task.id, NOW));

    const events = await eventsOf(task.id);
    expect(events.map((event) => event.type)).toEqual([
      'task.created',
      'task.updated',
      'task.completed',
      'task.uncompleted',
      'task.moved',
      'task.archived',
      'task.deleted',
    ]);
    expect(events[0]!.data).toEqual({ task });
    expect((events[1]!.data.task as Task).shade).toBe('red');
    expect((events[2]!.data.task as Task).completed).toBe(true);
    expect(events[4]!.data).toMatchObject({ from_list_id: 'lst_doing', to_list_id: 'lst_done' });
    expect((events[4]!.data.task as Task).list_id).toBe('lst_done');
    expect(events[6]!.data).toEqual({ task: last });
  });

  it('records task.updated for each task that loses a removed option, and for no other', async () => {
    const field = await write((tx) =>
      createCustomField(tx, ada, 'brd_acme', {
        name: 'Flavour',
        type: 'tag',
        options: [{ label: 'Sweet' }, { label: 'Sour' }],
      }),
    );
    const [sweet, sour] = field.options!.map((option) => option.id);
    const tasks = {
      both: await create('both'),
      sourOnly: await create('sour'),
      sweetOnly: await create('sweet'),
    };
    const values = { both: [sweet!, sour!], sourOnly: [sour!], sweetOnly: [sweet!] };
    for (const [name, task] of Object.entries(tasks)) {
      const value = values[name as keyof typeof values];
      await write((tx) =>
        updateTask(tx, ada, task.id, { custom_fields: [{ field_id: field.id, value }] }, NOW),
      );
    }

    const later = new Date(NOW.getTime() + 60_000);
    // The field's update records its tasks' value changes itself.
    await write((tx) =>
      updateCustomField(tx, ada, field.id, { options: [{ id: sweet!, label: 'Sweet' }] }, later),
    );

    const lastEvent = async (taskId: string) => (await eventsOf(taskId)).at(-1)!;
    const both = await lastEvent(tasks.both.id);
    expect(both.type).toBe('task.updated');
    expect((both.data.task as Task).custom_fields).toEqual([{ field_id: field.id, value: [sweet] }]);
    expect(both.data).toEqual({
      task: await getTask(handle.db, ada, tasks.both.id),
      previous_attributes: { custom_fields: [{ field_id: field.id, value: [sweet, sour] }] },
    });
    const sourOnly = await lastEvent(tasks.sourOnly.id);
    expect((sourOnly.data.task as Task).custom_fields).toEqual([]);
    expect((await eventsOf(tasks.sweetOnly.id)).map((event) => event.type)).toEqual([
      'task.created',
      'task.updated',
    ]);
  });

  it('records task.updated when a thread is linked, not when it is linked again', async () => {
    const task = await create('linked');
    await write((tx) => linkThread(tx, ada, task.id, { thread_id: THREADS.quote }, NOW));
    await write((tx) => linkThread(tx, ada, task.id, { thread_id: THREADS.quote }, NOW));
    expect((await eventsOf(task.id)).map((event) => event.type)).toEqual(['task.created', 'task.updated']);
  });

  it('leaves nothing behind when a change is rejected', async () => {
    const task = await create('untouched');
    const error = await rejection(write((tx) => moveTask(tx, ada, task.id, { list_id: 'lst_secret' }, NOW)));
    expect(error.code).toBe('not_found');
    expect((await eventsOf(task.id)).map((event) => event.type)).toEqual(['task.created']);
  });
});

describe('assign and unassign', () => {
  it('assigns a member of the board’s team by email (any case) and records task.assigned once', async () => {
    const task = await create('assign me');
    const assigned = await write((tx) => assignTask(tx, ada, task.id, 'DAN@example.com', NOW));
    expect(assigned.assignee).toEqual({ name: 'Dan Brown', email: 'dan@example.com' });
    await write((tx) => assignTask(tx, ada, task.id, 'dan@example.com', NOW));
    const events = (await eventsOf(task.id)).map((event) => event.type);
    expect(events).toEqual(['task.created', 'task.assigned']);
  });

  it('rejects someone outside the team or unknown, on assigneeEmail', async () => {
    const task = await create('not theirs');
    for (const email of ['bob@example.com', 'nobody@example.com']) {
      const error = await rejection(write((tx) => assignTask(tx, ada, task.id, email, NOW)));
      expect(error.code).toBe('validation_error');
      expect(error.details).toEqual([expect.objectContaining({ path: 'assigneeEmail' })]);
    }
  });

  it('assigns only the owner on a personal board', async () => {
    const task = await create('own', 'lst_ada_own');
    expect((await write((tx) => assignTask(tx, ada, task.id, 'ada@example.com', NOW))).assignee?.email).toBe(
      'ada@example.com',
    );
    const error = await rejection(write((tx) => assignTask(tx, ada, task.id, 'dan@example.com', NOW)));
    expect(error.code).toBe('validation_error');
  });

  it('unassigns only the assigned member', async () => {
    const task = await create('unassign me');
    await write((tx) => assignTask(tx, ada, task.id, 'dan@example.com', NOW));
    const wrong = await rejection(write((tx) => unassignTask(tx, ada, task.id, 'ada@example.com', NOW)));
    expect(wrong.details).toEqual([expect.objectContaining({ path: 'assigneeEmail' })]);
    const done = await write((tx) => unassignTask(tx, ada, task.id, 'dan@example.com', NOW));
    expect(done.assignee).toBeNull();
    expect((await eventsOf(task.id)).map((event) => event.type)).toEqual([
      'task.created',
      'task.assigned',
      'task.updated',
    ]);
  });
});

describe('create for v1', () => {
  it('creates from an email with its message id and content type', async () => {
    const task = await write((tx) =>
      createTask(
        tx,
        ada,
        {
          list_id: 'lst_leads',
          thread_id: THREADS.quote,
          message_id: 'a1b2c3d4e5f60011',
          content_type: 'task',
        },
        NOW,
      ),
    );
    expect(task).toMatchObject({ title: 'Quote request', content_type: 'task', deal: null });
    const missing = await rejection(
      write((tx) =>
        createTask(tx, ada, { list_id: 'lst_todo', thread_id: THREADS.quote, message_id: 'ffff0000' }, NOW),
      ),
    );
    expect(missing.code).toBe('not_found');
    const sale = await rejection(
      write((tx) => createTask(tx, ada, { list_id: 'lst_todo', title: 'x', content_type: 'sale' }, NOW)),
    );
    expect(sale.details).toEqual([expect.objectContaining({ path: 'content_type' })]);
  });
});

describe('toV1Item', () => {
  it('shows a task with the legacy names, UTC timestamps and empty strings when unassigned', async () => {
    const task = await write((tx) =>
      createTask(
        tx,
        ada,
        { list_id: 'lst_todo', thread_id: THREADS.quote, due_at: '2026-04-01T10:00:00+02:00' },
        NOW,
      ),
    );
    expect(toV1Item(task)).toEqual({
      id: task.id,
      title: 'Quote request',
      boardName: 'Roadmap',
      boardId: 'brd_acme',
      listName: 'To do',
      listId: 'lst_todo',
      dateCreated: '2026-03-10T12:00:00.000Z',
      dueDate: '2026-04-01T08:00:00.000Z',
      notes: null,
      firstThread: {
        title: 'Quote request',
        received: '2026-01-05T09:00:00.000Z',
        from: 'Bob Stone <bob@stone.test>',
      },
      completed: false,
      assignedTo: '',
      assignedToEmail: '',
    });
    const assigned = await write((tx) => assignTask(tx, ada, task.id, 'dan@example.com', NOW));
    expect(toV1Item(assigned)).toMatchObject({ assignedTo: 'Dan Brown', assignedToEmail: 'dan@example.com' });
  });
});

describe('reading many tasks', () => {
  /** Counts the statements run through the returned executor. */
  function counting(): { db: Executor; count: () => number } {
    let statements = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { db: handle.db.withPlugin(plugin), count: () => statements };
  }

  it('loads a page in the same few queries whether it holds one task or fifty', async () => {
    const small = (await write((tx) => createTask(tx, ada, { list_id: 'lst_done', title: 'warm' }, NOW)))
      .list_id!;
    const big = await write(async (tx) => {
      const { id } = await tx
        .insertInto('lists')
        .values({
          id: 'lst_big',
          board_id: 'brd_acme',
          name: 'Big',
          position: 9,
          created_at: NOW.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let index = 0; index < 50; index++) {
        const task = await createTask(
          tx,
          ada,
          { list_id: id, title: `t${index}`, thread_id: THREADS.invoice },
          NOW,
        );
        await updateTask(tx, ada, task.id, { custom_fields: [{ field_id: 'cf_amount', value: index }] }, NOW);
      }
      return id;
    });
    const one = counting();
    await listTasks(one.db, ada, { list_id: small }, { limit: 50 });
    const fifty = counting();
    const page = await listTasks(fifty.db, ada, { list_id: big }, { limit: 50 });
    expect(page.items).toHaveLength(50);
    expect(page.items[0]).toMatchObject({ title: 't49', thread_ids: [THREADS.invoice] });
    expect(page.items[0]!.custom_fields).toEqual([{ field_id: 'cf_amount', value: 49 }]);
    // Access (the list with its board), the page, its threads, its custom values.
    expect(one.count()).toBe(4);
    expect(fifty.count()).toBe(4);

    const all = await listAllTasks(handle.db, ada, { board_id: 'brd_acme', completed: false });
    expect(all.filter((task) => task.list_id === big)).toHaveLength(50);
  });
});
