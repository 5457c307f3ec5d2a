// The custom fields repository: a board's fields, their options, and the task values stored for them
// (JSON text). The rules (which values fit which type, what removing an option does) are
// domain/custom-fields.ts's.
import { type Executor, perStatement } from '../db/executor.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';
import type { CustomFieldsTable } from '../db/schema.ts';
import type { Page, PageRequest } from '../domain/pagination.ts';
import { forIntent, type Intent } from './locks.ts';
import { paginate } from './pagination.ts';
import { clearCustomValues } from './tasks.ts';

/** A field's row. */
export type FieldRow = CustomFieldsTable;

const FIELD_COLUMNS = ['id', 'board_id', 'name', 'type', 'ai', 'display_on_card', 'position'] as const;

/** The options of these fields, by field, each field's in order. */
export function selectOptions(db: Executor, fieldIds: readonly string[]) {
  return db
    .selectFrom('custom_field_options')
    .select(['id', 'field_id', 'label'])
    .where('field_id', 'in', [...fieldIds])
    .orderBy('field_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** A page of the board's fields, in board order. */
export function pageBoardFields(db: Executor, boardId: string, page: PageRequest): Promise<Page<FieldRow>> {
  return paginate(
    page,
    ['position', 'id'],
    (after, take) => {
      let query = db.selectFrom('custom_fields').select(FIELD_COLUMNS).where('board_id', '=', boardId);
      if (after) query = query.where(after);
      return query.orderBy('position').orderBy('id').limit(take).execute();
    },
    (row) => [row.position, row.id],
  );
}

// Prepared (db/prepared.ts): the task PATCH reads them on every change of custom values.
const selectBoardFields = prepareQuery((db: Executor, boardId: string) =>
  db
    .selectFrom('custom_fields')
    .select(FIELD_COLUMNS)
    .where('board_id', '=', textParam(boardId))
    .orderBy('position')
    .orderBy('id'),
);
const selectBoardFieldsWithValues = prepareQuery((db: Executor, boardId: string, taskId: string) =>
  db
    .selectFrom('custom_fields')
    .leftJoin('task_custom_values', (join) =>
      join
        .onRef('task_custom_values.field_id', '=', 'custom_fields.id')
        .on('task_custom_values.task_id', '=', textParam(taskId)),
    )
    .select([...FIELD_COLUMNS, 'task_custom_values.value'])
    .where('board_id', '=', textParam(boardId))
    .orderBy('position')
    .orderBy('id'),
);

/** Every field of the board in board order; with `taskId`, each with that task's value (JSON text, or null). */
export function boardFieldRows(
  db: Executor,
  boardId: string,
  taskId?: string,
): Promise<(FieldRow & { value?: string | null })[]> {
  return taskId === undefined
    ? selectBoardFields.execute(db, boardId)
    : selectBoardFieldsWithValues.execute(db, boardId, taskId);
}

/** The field; undefined if none. `change`: held until the transaction ends (storage/locks.ts). */
export function findField(
  db: Executor,
  fieldId: string,
  intent: Intent = 'read',
): Promise<FieldRow | undefined> {
  const query = db.selectFrom('custom_fields').select(FIELD_COLUMNS).where('id', '=', fieldId);
  return forIntent(db, query, intent).executeTakeFirst();
}

/** The position after the board's last field (0 for its first). */
export async function nextFieldPosition(db: Executor, boardId: string): Promise<number> {
  const last = await db
    .selectFrom('custom_fields')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('board_id', '=', boardId)
    .executeTakeFirst();
  return last?.position == null ? 0 : Number(last.position) + 1;
}

/** Writes a new field and its options, in the order given. */
export async function insertField(
  db: Executor,
  row: FieldRow,
  options: readonly { id: string; label: string }[],
): Promise<void> {
  await db.insertInto('custom_fields').values(row).execute();
  if (options.length > 0) {
    await db
      .insertInto('custom_field_options')
      .values(options.map((option, position) => ({ ...option, field_id: row.id, position })))
      .execute();
  }
}

export async function updateFieldRow(
  db: Executor,
  fieldId: string,
  changes: { name?: string; display_on_card?: number },
): Promise<void> {
  await db.updateTable('custom_fields').set(changes).where('id', '=', fieldId).execute();
}

/** Makes the field's options these, in this order: `removed` are deleted, the rest written. */
export async function writeOptions(
  db: Executor,
  fieldId: string,
  options: readonly { id: string; label: string }[],
  removed: readonly string[],
): Promise<void> {
  if (removed.length > 0) {
    await db
      .deleteFrom('custom_field_options')
      .where('id', 'in', [...removed])
      .execute();
  }
  for (const run of perStatement(options)) {
    await db
      .insertInto('custom_field_options')
      .values(
        run.rows.map((option, offset) => ({ ...option, field_id: fieldId, position: run.start + offset })),
      )
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((eb) => ({
          label: eb.ref('excluded.label'),
          position: eb.ref('excluded.position'),
        })),
      )
      .execute();
  }
}

/** Every task value stored for the field. */
export function fieldValues(db: Executor, fieldId: string) {
  return db
    .selectFrom('task_custom_values')
    .select(['task_id', 'value'])
    .where('field_id', '=', fieldId)
    .execute();
}

/** Clears the field's value on these tasks. */
export async function clearFieldValues(
  db: Executor,
  fieldId: string,
  taskIds: readonly string[],
): Promise<void> {
  for (const run of perStatement(taskIds)) {
    await db
      .deleteFrom('task_custom_values')
      .where('field_id', '=', fieldId)
      .where('task_id', 'in', run.rows)
      .execute();
  }
}

/** Writes many task values in as few statements as the parameter limit allows. */
export async function upsertValues(
  db: Executor,
  rows: readonly { task_id: string; field_id: string; value: string }[],
): Promise<void> {
  for (const run of perStatement(rows)) {
    await db
      .insertInto('task_custom_values')
      .values(run.rows)
      .onConflict((conflict) =>
        conflict.columns(['task_id', 'field_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
      )
      .execute();
  }
}

/** The task's value of the field (JSON text); undefined if it holds none. */
export async function findTaskValue(
  db: Executor,
  taskId: string,
  fieldId: string,
): Promise<string | undefined> {
  const current = await db
    .selectFrom('task_custom_values')
    .select('value')
    .where('task_id', '=', taskId)
    .where('field_id', '=', fieldId)
    .executeTakeFirst();
  return current?.value;
}

/** Sets the task's value of the field (JSON text), or clears it (null). */
export async function setTaskValue(
  db: Executor,
  taskId: string,
  fieldId: string,
  value: string | null,
): Promise<void> {
  if (value === null) await clearCustomValues(db, taskId, [fieldId]);
  else await upsertValues(db, [{ task_id: taskId, field_id: fieldId, value }]);
}
