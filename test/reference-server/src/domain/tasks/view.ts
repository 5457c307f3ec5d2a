// A task as a user may see it, and database rows → the v2 Task and the v1 Item. A page of tasks costs three queries whatever its size:
// the tasks (their list and board are known from the access check), then the linked threads and the
// custom values of every task on the page, one query each; a fourth when any task has an assignee.
import type { CustomFieldValue, Task, V1Item } from '@threadwork/shared/schemas';
import { type SqlBool, sql } from 'kysely';
import { type Executor, isShared } from '../../db/executor.ts';
import { integerParam, prepareQuery, textParam } from '../../db/prepared.ts';
import { checkBoardAccess, type ListAccess } from '../access.ts';
import { notFound } from '../errors.ts';

/** The task columns a view needs, `list_id` and `assignee_id` included. */
const TASK_COLUMNS = [
  'tasks.id',
  'tasks.list_id',
  'tasks.title',
  'tasks.content_type',
  'tasks.notes',
  'tasks.shade',
  'tasks.completed',
  'tasks.due_at',
  'tasks.created_at',
  'tasks.assignee_id',
  'tasks.contact_id',
  'tasks.deal_value',
  'tasks.deal_source',
  'tasks.deal_close_date',
  'tasks.deal_loss_reason',
  'tasks.archived_at',
  'tasks.position',
  'tasks.first_thread_title',
  'tasks.first_thread_received_at',
  'tasks.first_thread_from',
] as const;

/** Tasks with their assignee: all a view needs besides where the task is. Add `where`, `orderBy`, `limit`. */
export function selectTasks(db: Executor) {
  return db
    .selectFrom('tasks')
    .leftJoin('users as assignee', 'assignee.id', 'tasks.assignee_id')
    .select([...TASK_COLUMNS, 'assignee.display_name as assignee_name', 'assignee.email as assignee_email']);
}

/**
 * Tasks without their assignee, for a page whose assignees `withAssignees` adds: most tasks have none,
 * and joining users per row costs about a third of reading the row.
 */
export function selectBareTasks(db: Executor) {
  return db.selectFrom('tasks').select(TASK_COLUMNS);
}

const selectAssignees = prepareQuery((db: Executor, ...userIds: string[]) =>
  db.selectFrom('users').select(['id', 'display_name', 'email']).where('id', 'in', userIds.map(textParam)),
);

/**
 * Rows of `selectBareTasks` with their assignee's name and email (one query, none when no one is
 * assigned) and the columns of `place`, the same for every row. Each row is completed where it is:
 * copying fifty rows costs more than reading them.
 */
export async function withAssignees<Row extends { assignee_id: string | null }, Place extends object>(
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

/** Where a task is, as its view shows it. */
export interface TaskPlace {
  list_name: string;
  board_id: string;
  board_name: string;
}

export type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>['executeTakeFirstOrThrow']>> &
  TaskPlace;

/** Tasks with their list and board too, for a task whose place is not known yet. */
export function selectPlacedTasks(db: Executor) {
  return selectTasks(db)
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

/** The v2 Task of one row. Deal and contact belong to sale cards only. */
export function toTask(row: TaskRow, details: TaskDetails): Task {
  const sale = row.content_type === 'sale';
  const hasFirstThread =
    row.first_thread_title !== null ||
    row.first_thread_received_at !== null ||
    row.first_thread_from !== null;
  return {
    id: row.id,
    content_type: row.content_type,
    title: row.title,
    notes: row.notes,
    board_id: row.board_id,
    board_name: row.board_name,
    list_id: row.list_id,
    list_name: row.list_name,
    completed: Boolean(row.completed),
    shade: row.shade || 'none',
    custom_fields: details.customFields.get(row.id) ?? [],
    due_at: row.due_at,
    created_at: row.created_at,
    thread_ids: details.threadIds.get(row.id) ?? [],
    contact_id: sale ? row.contact_id : null,
    deal: sale
      ? {
          value: row.deal_value === null ? null : Number(row.deal_value),
          source: row.deal_source,
          close_date: row.deal_close_date,
          loss_reason: row.deal_loss_reason,
        }
      : null,
    assignee: row.assignee_email === null ? null : { name: row.assignee_name, email: row.assignee_email },
    first_thread: hasFirstThread
      ? {
          title: row.first_thread_title,
          received_at: row.first_thread_received_at,
          from: row.first_thread_from,
        }
      : null,
  };
}

/**
 * Tasks of many rows, in row order, with their details loaded in two queries. `window`: where the rows
 * stand, when they are consecutive tasks of one list in its order.
 */
export async function toTasks(db: Executor, rows: readonly TaskRow[], window?: ListWindow): Promise<Task[]> {
  const details = await loadTaskDetails(
    db,
    rows.map((row) => row.id),
    window,
  );
  return rows.map((row) => toTask(row, details));
}

export const utc = (value: string) => new Date(value).toISOString();

/** The v1 Item (also every v1 hook's body) of a v2 Task: same data, legacy names, UTC timestamps. */
export function toV1Item(task: Task): V1Item {
  const assignee = task.assignee;
  return {
    id: task.id,
    title: task.title,
    boardName: task.board_name ?? '',
    boardId: task.board_id ?? '',
    listName: task.list_name ?? '',
    listId: task.list_id ?? '',
    dateCreated: task.created_at === null ? '' : utc(task.created_at),
    dueDate: task.due_at === null ? null : utc(task.due_at),
    notes: task.notes,
    firstThread: task.first_thread
      ? {
          title: task.first_thread.title,
          received: task.first_thread.received_at === null ? null : utc(task.first_thread.received_at),
          from: task.first_thread.from,
        }
      : null,
    completed: task.completed,
    // v1 §2: the assignee's name, "" when there is none (a nameless assignee too); the email is only ever
    // in assignedToEmail.
    assignedTo: assignee?.name ?? '',
    assignedToEmail: assignee?.email ?? '',
  };
}

// ---------------------------------------------------------------------------------------------------
// One task, as the user may see it

/** One query: the task with its list, board and assignee, if the user may see it (404) and it is paid (402). */
/**
 * The task, if the user may see it. With `lock`, a write holds the task row until it commits
 * (PostgreSQL; see docs/postgresql.md), so it reads the task as it stands and no other write changes
 * it meanwhile.
 */
export async function requireTask(db: Executor, userId: string, taskId: string, lock?: 'lock') {
  const row = await selectPlacedTasks(db)
    .leftJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'boards.team_id')
        .on('team_members.user_id', '=', textParam(userId)),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select(['team_members.user_id as member_id', 'subscriptions.plan', 'subscriptions.status'])
    .where('tasks.id', '=', textParam(taskId))
    .$if(lock === 'lock' && isShared(db), (query) => query.forUpdate('tasks'))
    .executeTakeFirst();
  if (!row || !checkBoardAccess(row, userId)) throw notFound('task', taskId);
  return row;
}

/** The Task of a row as it now stands in the database (threads and custom values re-read). */
export async function viewOf(db: Executor, row: TaskRow): Promise<Task> {
  const [task] = await toTasks(db, [row]);
  return task!;
}

export function placeOf(list: ListAccess): TaskPlace {
  return { list_name: list.name, board_id: list.board.id, board_name: list.board.name };
}

/** `Name <email>`, or the bare address when the sender has no name. */
function formatSender(from: { email: string; name: string | null }): string {
  return from.name ? `${from.name} <${from.email}>` : from.email;
}

export interface ThreadLike {
  subject: string | null;
  messages: readonly { id: string; from: { email: string; name: string | null }; date: string | null }[];
}

/** The `first_thread` snapshot a thread gives a task: its subject, first message date and sender. */
export function firstThreadColumns(thread: ThreadLike) {
  const first = thread.messages[0];
  return {
    first_thread_title: thread.subject,
    first_thread_received_at: first?.date ? utc(first.date) : null,
    first_thread_from: first ? formatSender(first.from) : null,
  };
}
