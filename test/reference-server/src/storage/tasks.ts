// The tasks repository: every statement about a task's row, its links to threads, its custom values and
// its order in a list, as the task commands and queries ask for them ("the task, to change it", "a
// page of this list"). Which columns hold a task's fields comes from db/task-fields.ts; which rows a
// write locks, and in which order, from storage/locks.ts. A page of tasks costs three queries whatever
// its size: the tasks (their list and board are known from the access check), then the linked threads
// and the custom values of every task on the page, one query each; a fourth when any task has an
// assignee.
import type { CustomFieldValue, Position } from '@threadwork/shared/schemas';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Executor, isShared, perStatement } from '../db/executor.ts';
import { integerParam, type PreparedQuery, prepareQuery, textParam } from '../db/prepared.ts';
import type { TasksTable } from '../db/schema.ts';
import { type DerivedTaskFields, type TASK_FIELDS, taskFields } from '../db/task-fields.ts';
import { raceLost } from '../db/transaction.ts';
import { findListAccess, type ListAccessRow } from './access.ts';
import type { Intent } from './locks.ts';

/** The fields' columns of a table (TASK_FIELDS, or a test's larger one), as a view selects them. */
type Fields = DerivedTaskFields<typeof TASK_FIELDS>;

/** The task columns a view needs: its id and place, its assignee's id, and its fields' columns. */
function viewColumns(fields: Fields) {
  return [
    'tasks.id',
    'tasks.list_id',
    'tasks.assignee_id',
    'tasks.archived_at',
    'tasks.position',
    ...fields.columns.map((column) => `tasks.${column}` as const),
  ] as const;
}
const TASK_COLUMNS = viewColumns(taskFields);

/** Tasks with their assignee: all a view needs besides where the task is. Add `where`, `orderBy`, `limit`. */
export function selectTasks(db: Executor, fields: Fields = taskFields) {
  return db
    .selectFrom('tasks')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assignee_id')
    .select([
      ...(fields === taskFields ? TASK_COLUMNS : viewColumns(fields)),
      'assignee.display_name as assignee_name',
      'assignee.email as assignee_email',
    ]);
}

/**
 * Tasks without their assignee, for a page whose assignees `withAssignees` adds: most tasks have none,
 * and joining users per row costs about a third of reading the row.
 */
function selectBareTasks(db: Executor) {
  return db.selectFrom('tasks').select(TASK_COLUMNS);
}

/** Tasks with their list and board too, for a task whose place is not known yet. */
export function selectPlacedTasks(db: Executor, fields: Fields = taskFields) {
  return selectTasks(db, fields)
    .innerJoin('lists', 'lists.id', 'tasks.list_id')
    .innerJoin('boards', 'boards.id', 'lists.board_id')
    .select([
      'lists.name as list_name',
      'lists.board_id',
      'boards.name as board_name',
      'boards.board_type',
      'boards.team_id',
      'boards.owner_id',
    ]);
}

/** Where a task is, as its view shows it. */
export interface TaskPlace {
  list_name: string;
  board_id: string;
  board_name: string;
}

/** A task's row as a view reads it: its columns, its assignee's name and email, and where it is. */
export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>['executeTakeFirstOrThrow']>> &
  TaskPlace;

const selectAssignees = prepareQuery((db: Executor, ...userIds: string[]) =>
  db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', 'in', userIds.map(textParam)),
);

/**
 * Rows of `selectBareTasks` with their assignee's name and email (one query, none when no one is
 * assigned) and the columns of `place`, the same for every row. Each row is completed where it is:
 * copying fifty rows costs more than reading them.
 */
async function withAssignees<Row extends { assignee_id: string | null }, Place extends object>(
  db: Executor,
  rows: Row[],
  place: Place,
): Promise<(Row & Place & { assignee_name: string | null; assignee_email: string | null })[]> {
  const userIds = [...new Set(rows.flatMap((row) => (row.assignee_id === null ? [] : [row.assignee_id])))];
  const users =
    userIds.length === 0
      ? new Map<string, { display_name: string | null; email: string }>()
      : new Map((await selectAssignees.execute(db, ...userIds)).map((user) => [user.id, user]));
  for (const row of rows) {
    const user = row.assignee_id === null ? undefined : users.get(row.assignee_id);
    Object.assign(row, place, {
      assignee_name: user?.display_name ?? null,
      assignee_email: user?.email ?? null,
    });
  }
  return rows as (Row & Place & { assignee_name: string | null; assignee_email: string | null })[];
}

// ---------------------------------------------------------------------------------------------------
// One task, with what decides who may see it

function accessQuery(db: Executor, userId: string, taskId: string) {
  return selectPlacedTasks(db)
    .leftJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'boards.team_id')
        .on('team_members.user_id', '=', textParam(userId)),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select(['team_members.user_id as member_id', 'subscriptions.plan', 'subscriptions.status'])
    .where('tasks.id', '=', textParam(taskId));
}
const selectTaskAccess = prepareQuery(accessQuery);
const selectTaskAccessForUpdate = prepareQuery((db: Executor, userId: string, taskId: string) =>
  accessQuery(db, userId, taskId).forUpdate('tasks'),
);

/** A task with its list, board and assignee, and what decides who may see it (domain/access.ts). */
export type TaskAccessRow = NonNullable<Awaited<ReturnType<typeof selectTaskAccess.executeTakeFirst>>>;

/**
 * The task in one query; undefined if there is none. `change`: the write holds the task's row until it
 * commits (PostgreSQL), so it reads the task as it stands and no other write changes it meanwhile.
 */
export function findTask(
  db: Executor,
  userId: string,
  taskId: string,
  intent: Intent = 'read',
): Promise<TaskAccessRow | undefined> {
  const query = intent === 'change' && isShared(db) ? selectTaskAccessForUpdate : selectTaskAccess;
  return query.executeTakeFirst(db, userId, taskId);
}

/**
 * What a move changes: the destination list and the task, both held (lists before tasks: the list's
 * lock travels in front of the task's locked read, storage/locks.ts).
 */
export async function findTaskToMove(
  tx: Executor,
  userId: string,
  taskId: string,
  listId: string,
): Promise<{ task: TaskAccessRow | undefined; destination: ListAccessRow | undefined }> {
  const destination = await findListAccess(tx, userId, listId, 'change');
  const task = await findTask(tx, userId, taskId, 'change');
  return { task, destination };
}

/**
 * What a reorder changes: the task, with its list held before it. On PostgreSQL the task is read to
 * learn its list, the list is locked, then the task read again, locked; a task moved meanwhile to
 * another list makes the transaction run again (storage/locks.ts).
 */
export async function findTaskToReorder(
  tx: Executor,
  userId: string,
  taskId: string,
): Promise<TaskAccessRow | undefined> {
  const seen = await findTask(tx, userId, taskId);
  if (seen === undefined || !isShared(tx)) return seen;
  await findListAccess(tx, userId, seen.list_id, 'change');
  const row = await findTask(tx, userId, taskId, 'change');
  if (row !== undefined && row.list_id !== seen.list_id) {
    throw raceLost('the task moved to another list while being reordered');
  }
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Writing a task's row

/** Every column of a new task but its position. */
function insertColumns(fields: Fields) {
  return ['id', 'list_id', 'assignee_id', 'archived_at', 'updated_at', ...fields.columns] as const;
}

/** A new task's row, but for its position (where it lands decides that: see `insertTask`). */
export type NewTaskRow = Omit<TasksTable, 'position'>;

interface TaskInserts extends Record<'at' | Position, PreparedQuery<unknown[], unknown>> {
  /** The columns the inserts take, in their order (the position last, for `at`). */
  columns: readonly string[];
}

const insertsOf = new WeakMap<Fields, TaskInserts>();

/** The inserts of a task (at a position, or at an edge of its list, reading its position there). */
function insertsFor(fields: Fields) {
  let inserts = insertsOf.get(fields);
  if (inserts !== undefined) return inserts;
  const columns = insertColumns(fields);
  const listIndex = columns.indexOf('list_id');
  const valuesOf = (values: unknown[]) =>
    Object.fromEntries(columns.map((column, index) => [column, values[index]])) as object;
  const at = (edge: Position | null) =>
    prepareQuery((db: Executor, ...values: unknown[]) =>
      db.insertInto('tasks').values({
        ...valuesOf(values),
        position: edge === null ? values[columns.length] : edgePositionSql(values[listIndex] as string, edge),
      } as never),
    );
  inserts = { columns, at: at(null), top: at('top'), bottom: at('bottom') };
  insertsOf.set(fields, inserts);
  return inserts;
}

/**
 * Inserts a task at `position`, or at the top or bottom of its list (its position read by the insert
 * itself, so a create costs no round trip for it: the list is held, see `findListAccess`). Nothing
 * reads its outcome: on PostgreSQL it travels with the transaction's next statement.
 */
export async function insertTask(
  tx: Executor,
  row: NewTaskRow,
  at: number | Position,
  fields: Fields = taskFields,
): Promise<void> {
  const inserts = insertsFor(fields);
  const values = inserts.columns.map((column) => (row as Record<string, unknown>)[column]);
  if (typeof at === 'number') await inserts.at.writeLater(tx, ...values, at);
  else await inserts[at].writeLater(tx, ...values);
}

/** Writes these columns of the task's row. */
export async function updateTask(tx: Executor, taskId: string, columns: Partial<TasksTable>): Promise<void> {
  await tx.updateTable('tasks').set(columns).where('id', '=', taskId).execute();
}

/** Deletes the task, with its links and values (their rows cascade). */
export async function deleteTask(tx: Executor, taskId: string): Promise<void> {
  await tx.deleteFrom('tasks').where('id', '=', taskId).execute();
}

/** Clears the task's custom values: those of `fieldIds`, or all of them. */
export async function clearCustomValues(tx: Executor, taskId: string, fieldIds?: readonly string[]) {
  let query = tx.deleteFrom('task_custom_values').where('task_id', '=', taskId);
  if (fieldIds !== undefined) query = query.where('field_id', 'in', fieldIds);
  await query.execute();
}

/** The threads linked to the task, in link order, and the position the next link takes. */
export async function linkedThreads(
  tx: Executor,
  taskId: string,
): Promise<{ threadIds: string[]; next: number }> {
  const rows = await tx
    .selectFrom('task_threads')
    .select(['thread_id', 'position'])
    .where('task_id', '=', taskId)
    .orderBy('position')
    .execute();
  const last = rows.at(-1);
  return {
    threadIds: rows.map((row) => row.thread_id),
    next: last === undefined ? 0 : Number(last.position) + 1,
  };
}

/** Links a thread to the task, `position`-th in link order. */
export async function linkThread(tx: Executor, taskId: string, threadId: string, position: number) {
  await tx.insertInto('task_threads').values({ task_id: taskId, thread_id: threadId, position }).execute();
}

/**
 * Gives these tasks a new `updated_at`, and answers their rows as they now stand (placed), by id; runs
 * of ids small enough for one statement each.
 */
export async function* touchTasks(tx: Executor, taskIds: readonly string[], at: string) {
  for (const { rows: ids } of perStatement([...taskIds].sort())) {
    await tx.updateTable('tasks').set({ updated_at: at }).where('id', 'in', ids).execute();
    yield await selectPlacedTasks(tx).where('tasks.id', 'in', ids).orderBy('tasks.id').execute();
  }
}

// ---------------------------------------------------------------------------------------------------
// Links and custom values of many tasks

export interface TaskDetails {
  /** Linked thread ids per task, in link order. */
  threadIds: ReadonlyMap<string, string[]>;
  /** Stored custom values per task, in the board's field order. */
  customFields: ReadonlyMap<string, CustomFieldValue[]>;
}

const NO_DETAILS: TaskDetails = { threadIds: new Map(), customFields: new Map() };

function groupBy<Row extends { task_id: string }, Value>(
  rows: readonly Row[],
  pick: (row: Row) => Value,
): Map<string, Value[]> {
  const groups = new Map<string, Value[]>();
  for (const row of rows) {
    const group = groups.get(row.task_id);
    if (group) group.push(pick(row));
    else groups.set(row.task_id, [pick(row)]);
  }
  return groups;
}

// Unordered: the index on (task_id, thread_id) answers it alone, where ordering by position would
// sort in a temporary b-tree; a page's links are few and sorted in JS instead.
const selectThreadIds = prepareQuery((db: Executor, ...taskIds: string[]) =>
  db
    .selectFrom('task_threads')
    .select(['task_id', 'thread_id', 'position'])
    .where('task_id', 'in', taskIds.map(textParam)),
);

const selectCustomValues = prepareQuery((db: Executor, ...taskIds: string[]) =>
  db
    .selectFrom('task_custom_values')
    .innerJoin('custom_fields', 'custom_fields.id', 'task_custom_values.field_id')
    .select(['task_custom_values.task_id', 'task_custom_values.field_id', 'task_custom_values.value'])
    .where('task_custom_values.task_id', 'in', taskIds.map(textParam))
    .orderBy('task_custom_values.task_id')
    .orderBy('custom_fields.position')
    .orderBy('custom_fields.id'),
);

/**
 * Consecutive tasks of one list, in its (position, id) order, by the first and the last of them. Their
 * links and custom values are read by that range of the list's index rather than by a list of ids,
 * which SQLite answers in about half the time; a task of the range not shown (archived, or left out by
 * a filter) only brings rows no one looks up.
 */
export interface ListWindow {
  list_id: string;
  first: { position: number; id: string };
  last: { position: number; id: string };
}

const selectWindowThreadIds = prepareQuery(
  (db: Executor, listId: string, fromPosition: number, fromId: string, toPosition: number, toId: string) =>
    db
      .selectFrom('tasks')
      .innerJoin('task_threads', 'task_threads.task_id', 'tasks.id')
      .select(['task_threads.task_id', 'task_threads.thread_id', 'task_threads.position'])
      .where('tasks.list_id', '=', textParam(listId))
      .where(
        sql<SqlBool>`(tasks.position, tasks.id) >= (${integerParam(fromPosition)}, ${textParam(fromId)})`,
      )
      .where(sql<SqlBool>`(tasks.position, tasks.id) <= (${integerParam(toPosition)}, ${textParam(toId)})`),
);

const selectWindowCustomValues = prepareQuery(
  (db: Executor, listId: string, fromPosition: number, fromId: string, toPosition: number, toId: string) =>
    db
      .selectFrom('tasks')
      .innerJoin('task_custom_values', 'task_custom_values.task_id', 'tasks.id')
      .innerJoin('custom_fields', 'custom_fields.id', 'task_custom_values.field_id')
      .select(['task_custom_values.task_id', 'task_custom_values.field_id', 'task_custom_values.value'])
      .where('tasks.list_id', '=', textParam(listId))
      .where(
        sql<SqlBool>`(tasks.position, tasks.id) >= (${integerParam(fromPosition)}, ${textParam(fromId)})`,
      )
      .where(sql<SqlBool>`(tasks.position, tasks.id) <= (${integerParam(toPosition)}, ${textParam(toId)})`)
      .orderBy('task_custom_values.task_id')
      .orderBy('custom_fields.position')
      .orderBy('custom_fields.id'),
);

function selectValuesOf(db: Executor, taskIds: readonly string[], window: ListWindow | undefined) {
  if (!window) return selectCustomValues.execute(db, ...taskIds);
  const { first, last } = window;
  return selectWindowCustomValues.execute(
    db,
    window.list_id,
    first.position,
    first.id,
    last.position,
    last.id,
  );
}

function selectThreadsOf(db: Executor, taskIds: readonly string[], window: ListWindow | undefined) {
  if (!window) return selectThreadIds.execute(db, ...taskIds);
  const { first, last } = window;
  return selectWindowThreadIds.execute(db, window.list_id, first.position, first.id, last.position, last.id);
}

/**
 * Threads and custom values of many tasks: two queries, whatever the number of tasks. `window`, when
 * the tasks are consecutive tasks of one list, is where they stand.
 */
export async function loadTaskDetails(
  db: Executor,
  taskIds: readonly string[],
  window?: ListWindow,
): Promise<TaskDetails> {
  if (taskIds.length === 0) return NO_DETAILS;
  const [threads, values] = await Promise.all([
    selectThreadsOf(db, taskIds, window),
    selectValuesOf(db, taskIds, window),
  ]);
  threads.sort((a, b) => Number(a.position) - Number(b.position));
  return {
    threadIds: groupBy(threads, (row) => row.thread_id),
    customFields: groupBy(values, (row) => ({
      field_id: row.field_id,
      value: JSON.parse(row.value) as unknown,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Listing a list's or a board's tasks

/** A listed task's row: with its list's position too (a board's listing orders by it). */
export type ListedRow = TaskRow & { list_position: number };

/** Which tasks a listing shows: a list's or a board's, not archived, in either state or in one. */
export type ListingScope =
  | { list: { id: string; name: string; position: number; board_id: string; board_name: string } }
  | { board: { id: string; name: string } };

/** The sort key of a listing: a list's tasks by position; a board's by list position, then task position. */
export function listingSort(scope: ListingScope): readonly string[] {
  return 'list' in scope
    ? ['tasks.position', 'tasks.id']
    : ['lists.position', 'lists.id', 'tasks.position', 'tasks.id'];
}

/** A listed row's sort key (see `listingSort`). */
export function listingKey(scope: ListingScope, row: ListedRow): (string | number)[] {
  return 'list' in scope ? [row.position, row.id] : [row.list_position, row.list_id, row.position, row.id];
}

/** The most common listing, a list's first page of tasks in either state, compiled once. */
const firstPageOfList = prepareQuery((db: Executor, listId: string, take: number) =>
  selectBareTasks(db)
    .where('tasks.list_id', '=', textParam(listId))
    .where('tasks.archived_at', 'is', null)
    .orderBy('tasks.position')
    .orderBy('tasks.id')
    .limit(integerParam(take)),
);

/**
 * The listed rows in order, after a cursor and up to a count when given. A list's tasks need no join to
 * show their place (it is known from the access check); a board's join their list for its name and
 * order. Assignees are added afterwards.
 */
export async function listedTasks(
  db: Executor,
  scope: ListingScope,
  completed: boolean | undefined,
  after: RawBuilder<SqlBool> | null,
  take?: number,
): Promise<ListedRow[]> {
  const state = completed === undefined ? null : completed ? 1 : 0;
  if ('list' in scope) {
    const { list } = scope;
    const place = {
      list_name: list.name,
      list_position: list.position,
      board_id: list.board_id,
      board_name: list.board_name,
    };
    if (after === null && state === null && take !== undefined) {
      return withAssignees(db, await firstPageOfList.execute(db, list.id, take), place);
    }
    let query = selectBareTasks(db)
      .where('tasks.list_id', '=', list.id)
      .where('tasks.archived_at', 'is', null);
    if (state !== null) query = query.where('tasks.completed', '=', state);
    if (after) query = query.where(after);
    query = query.orderBy('tasks.position').orderBy('tasks.id');
    return withAssignees(db, await (take === undefined ? query : query.limit(take)).execute(), place);
  }
  const { board } = scope;
  let query = selectBareTasks(db)
    .innerJoin('lists', 'lists.id', 'tasks.list_id')
    .select(['lists.name as list_name', 'lists.position as list_position'])
    .where('lists.board_id', '=', board.id)
    .where('tasks.archived_at', 'is', null);
  if (state !== null) query = query.where('tasks.completed', '=', state);
  if (after) query = query.where(after);
  query = query.orderBy('lists.position').orderBy('lists.id').orderBy('tasks.position').orderBy('tasks.id');
  return withAssignees(db, await (take === undefined ? query : query.limit(take)).execute(), {
    board_id: board.id,
    board_name: board.name,
  });
}

/** The board of each of these tasks, by task id (tasks that no longer exist are left out). */
export async function boardsOfTasks(db: Executor, taskIds: readonly string[]): Promise<Map<string, string>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('tasks')
    .innerJoin('lists', 'lists.id', 'tasks.list_id')
    .select(['tasks.id', 'lists.board_id'])
    .where('tasks.id', 'in', taskIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.board_id]));
}

/** The events recorded for a task, oldest first. */
export function taskEventRows(db: Executor, taskId: string) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('task_id', '=', taskId)
    .orderBy('seq')
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Order in a list: the integer `tasks.position`, smaller = higher, ties broken by id

// One aggregate per query: SQLite answers a lone min() or max() from the index without a scan.
const topPosition = prepareQuery((db: Executor, listId: string) =>
  db
    .selectFrom('tasks')
    .select((eb) => eb.fn.min('position').as('position'))
    .where('list_id', '=', textParam(listId)),
);
const bottomPosition = prepareQuery((db: Executor, listId: string) =>
  db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('list_id', '=', textParam(listId)),
);

/**
 * The same slot as `edgePosition`, as an SQL expression for the statement that places the task: read
 * and used in one statement, so a create costs no round trip for it (the list is held: see
 * `findListAccess`).
 */
function edgePositionSql(listId: string, edge: Position): RawBuilder<number> {
  return edge === 'top'
    ? sql<number>`(select coalesce(min(position) - 1, 0) from tasks where list_id = ${textParam(listId)})`
    : sql<number>`(select coalesce(max(position) + 1, 0) from tasks where list_id = ${textParam(listId)})`;
}

/** The slot above every task of the list (`top`) or below every one (`bottom`): one index probe. */
export async function edgePosition(db: Executor, listId: string, edge: Position): Promise<number> {
  const row = await (edge === 'top' ? topPosition : bottomPosition).executeTakeFirst(db, listId);
  if (row?.position == null) return 0;
  return edge === 'top' ? Number(row.position) - 1 : Number(row.position) + 1;
}

/** A task to place another one after: its list, position and whether it is archived. */
export async function findAnchor(db: Executor, anchorId: string) {
  const anchor = await db
    .selectFrom('tasks')
    .select(['id', 'list_id', 'position', 'archived_at'])
    .where('id', '=', anchorId)
    .executeTakeFirst();
  return anchor && { ...anchor, position: Number(anchor.position) };
}

/**
 * The slot directly below `position` in the list: free already when the next task (other than the
 * one being placed) is further down, otherwise made by moving every task below it down one.
 */
export async function slotBelow(
  tx: Executor,
  listId: string,
  position: number,
  movingTaskId?: string,
): Promise<number> {
  const slot = position + 1;
  let next = tx
    .selectFrom('tasks')
    .select((eb) => eb.fn.min('position').as('position'))
    .where('list_id', '=', listId)
    .where('position', '>', position);
  if (movingTaskId !== undefined) next = next.where('id', '!=', movingTaskId);
  const below = (await next.executeTakeFirst())?.position;
  if (below == null || Number(below) > slot) return slot;
  let shift = tx
    .updateTable('tasks')
    .set((eb) => ({ position: eb('position', '+', 1) }))
    .where('list_id', '=', listId)
    .where('position', '>', position);
  if (movingTaskId !== undefined) shift = shift.where('id', '!=', movingTaskId);
  await shift.execute();
  return slot;
}

export interface Neighbours {
  /** The task directly above (null at the top). */
  previousId: string | null;
  /** The task directly below (null at the bottom). */
  nextId: string | null;
  /** 0-based index in the list. */
  index: number;
}

/** Where a task stands among the tasks of its list that are not archived: one query. */
export async function neighboursOf(
  db: Executor,
  listId: string,
  task: { id: string; position: number },
): Promise<Neighbours> {
  const { id, position } = task;
  const row = await db
    .selectNoFrom((eb) => {
      const listed = (side: 'above' | 'below') =>
        eb
          .selectFrom('tasks')
          .where('tasks.list_id', '=', listId)
          .where('tasks.archived_at', 'is', null)
          .where((w) => {
            const op = side === 'above' ? '<' : '>';
            return w.or([
              w('tasks.position', op, position),
              w.and([w('tasks.position', '=', position), w('tasks.id', op, id)]),
            ]);
          });
      return [
        listed('above')
          .select('tasks.id')
          .orderBy('tasks.position', 'desc')
          .orderBy('tasks.id', 'desc')
          .limit(1)
          .as('previous_id'),
        listed('below')
          .select('tasks.id')
          .orderBy('tasks.position')
          .orderBy('tasks.id')
          .limit(1)
          .as('next_id'),
        listed('above')
          .select((count) => count.fn.countAll().as('n'))
          .as('index'),
      ];
    })
    .executeTakeFirstOrThrow();
  return { previousId: row.previous_id ?? null, nextId: row.next_id ?? null, index: Number(row.index ?? 0) };
}
