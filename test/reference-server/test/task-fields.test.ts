// A task's fields are declared once (src/db/task-fields.ts): a field added to that table alone is
// inserted, read back, shown in the v2 Task and, if it says so, in the v1 Item, by the same code that
// serves every other field. The field's column comes from its migration (here, the ALTER TABLE a
// migration would run); the API's declaration of it is the shared schema's, which the table is checked
// against by the compiler.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import type { Executor } from '../src/db/executor.ts';
import {
  column,
  type DeclaredTaskFields,
  deriveTaskFields,
  TASK_FIELDS,
  taskFields,
} from '../src/db/task-fields.ts';
import { toTask, v1ItemOf } from '../src/domain/tasks/view.ts';
import { loadSeed } from '../src/seed/load-seed.ts';
import { insertTask, selectPlacedTasks } from '../src/storage/tasks.ts';
import { openTestDatabase } from './helpers/database.ts';
import { tasksSeed } from './tasks-seed.ts';

const NOW = new Date('2026-03-10T12:00:00.000Z');
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
  await loadSeed(handle.db, tasksSeed, NOW);
  // What the field's migration would add.
  await sql`alter table tasks add column priority text`.execute(handle.db);
});
afterAll(() => handle.close());

/** The server's table with one more field, declared as every field is. */
const WITH_PRIORITY = {
  ...TASK_FIELDS,
  priority: column<string | null, 'priority'>('priority', {
    empty: null,
    v1: { name: 'priority', show: (priority) => priority },
  }),
};
const fields = deriveTaskFields(WITH_PRIORITY);
/** The storage and view functions take a derivation of the server's table; this one is larger. */
const larger = fields as unknown as typeof taskFields;

const write = <T>(work: (tx: Executor) => Promise<T>) => handle.db.transaction().execute(work);
const at = NOW.toISOString();

async function insertAndRead(id: string, priority?: string) {
  const row = {
    id,
    list_id: 'lst_doing',
    assignee_id: null,
    archived_at: null,
    updated_at: at,
    ...fields.columnsOf({ title: `Task ${id}`, content_type: 'task', created_at: at, priority }),
  };
  await write((tx) => insertTask(tx, row as never, 'top', larger));
  return selectPlacedTasks(handle.db, larger).where('tasks.id', '=', id).executeTakeFirstOrThrow();
}

describe('a task field added through the table alone', () => {
  it('is a column of the row a create inserts and a read selects', () => {
    expect(fields.columns).toEqual([...taskFields.columns, 'priority']);
  });

  it('is written by a create, read back, and shown in the Task after the schema’s own fields', async () => {
    const row = await insertAndRead('tsk_priority_high', 'high');
    expect((row as Record<string, unknown>)['priority']).toBe('high');
    const task = toTask(row, { threadIds: new Map(), customFields: new Map() }, larger) as Record<
      string,
      unknown
    >;
    expect(task['priority']).toBe('high');
    expect(Object.keys(task)).toEqual([
      ...Object.keys(toTask(row, { threadIds: new Map(), customFields: new Map() })),
      'priority',
    ]);
    // Its v1 name, as the table declares it; every other field of the Item as before.
    const item = v1ItemOf(task as never, larger) as Record<string, unknown>;
    expect(item).toMatchObject({ priority: 'high', title: 'Task tsk_priority_high', dateCreated: at });
    expect(Object.keys(item).at(-1)).toBe('priority');
  });

  it('takes its empty value when a create leaves it out, and a change writes only its column', async () => {
    const row = await insertAndRead('tsk_priority_none');
    expect(fields.read(row as never).priority).toBeNull();
    expect(fields.changedColumnsOf({ priority: 'low' })).toEqual({ priority: 'low' });
  });

  it('is checked against the shared Task schema by the compiler', () => {
    // A table missing a field of Task (here, `notes`) is not a table of Task's fields.
    const { notes: _notes, ...withoutNotes } = TASK_FIELDS;
    // @ts-expect-error: `notes` is a field of Task the table does not declare.
    withoutNotes satisfies DeclaredTaskFields;
    TASK_FIELDS satisfies DeclaredTaskFields;
    expect(Object.keys(withoutNotes)).not.toContain('notes');
  });
});
