// Tasks: how each one is created, read, changed, moved, reordered, linked to threads, archived and
// deleted, for v1 and v2 alike. Writes take the transaction they run in (`runInTransaction`) and
// record their event in it; reads take any executor. Every task id is checked against what the user
// may see (404 otherwise) and against the paid gate of its team (402).
import type {
  CustomFieldValueInput,
  Deleted,
  LinkThreadResult,
  Position,
  ReorderResult,
  Shade,
  Task,
} from '@threadwork/shared/schemas';
import type { RawBuilder, SqlBool } from 'kysely';
import { type Executor, perStatement } from '../db/database.ts';
import { integerParam, prepareInsert, prepareQuery, textParam } from '../db/prepared.ts';
import type { TasksTable } from '../db/schema.ts';
import { checkBoardAccess, type ListAccess, requireBoard, requireList } from './access.ts';
import { boardFields, checkFieldValues, upsertValues } from './custom-fields.ts';
import { invalidField, notFound } from './errors.ts';
import { recordTaskEvent, type TaskEventKind } from './events.ts';
import { newId } from './ids.ts';
import { archiveThread, findThread, requireConnectedMailbox } from './mailbox/index.ts';
import { type Page, type PageRequest, paginate } from './pagination.ts';
import {
  edgePosition,
  landingPosition,
  neighboursOf,
  type Placement,
  positionAfter,
  requireAnchor,
} from './placement.ts';
import {
  selectBareTasks,
  selectPlacedTasks,
  type TaskDetails,
  type TaskPlace,
  type TaskRow,
  toTask,
  toTasks,
  toV1Item,
  withAssignees,
} from './task-view.ts';

export type { Placement } from './placement.ts';
export { toTask, toV1Item } from './task-view.ts';

const SALES_BOARD = 'sales';

// ---------------------------------------------------------------------------------------------------
// Access and views

/** One query: the task with its list, board and assignee, if the user may see it (404) and it is paid (402). */
async function requireTask(db: Executor, userId: string, taskId: string) {
  const row = await selectPlacedTasks(db)
    .leftJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'boards.team_id')
        .on('team_members.user_id', '=', textParam(userId)),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select(['team_members.user_id as member_id', 'subscriptions.plan', 'subscriptions.status'])
    .where('tasks.id', '=', textParam(taskId))
    .executeTakeFirst();
  if (!row || !checkBoardAccess(row, userId)) throw notFound('task', taskId);
  return row;
}

/** The Task of a row as it now stands in the database (threads and custom values re-read). */
async function viewOf(db: Executor, row: TaskRow): Promise<Task> {
  const [task] = await toTasks(db, [row]);
  return task!;
}

async function record(
  tx: Executor,
  kind: TaskEventKind,
  task: Task,
  teamId: string | null,
  at: Date,
  fromListId?: string,
): Promise<void> {
  await recordTaskEvent(
    tx,
    {
      kind,
      task,
      item: toV1Item(task),
      boardId: task.board_id!,
      listId: task.list_id!,
      teamId,
      ...(fromListId === undefined ? {} : { fromListId }),
    },
    at,
  );
}

const utc = (value: string) => new Date(value).toISOString();

/** `Name <email>`, or the bare address when the sender has no name. */
function formatSender(from: { email: string; name: string | null }): string {
  return from.name ? `${from.name} <${from.email}>` : from.email;
}

interface ThreadLike {
  subject: string | null;
  messages: readonly { id: string; from: { email: string; name: string | null }; date: string | null }[];
}

/** The `first_thread` snapshot a thread gives a task: its subject, first message date and sender. */
function firstThreadColumns(thread: ThreadLike) {
  const first = thread.messages[0];
  return {
    first_thread_title: thread.subject,
    first_thread_received_at: first?.date ? utc(first.date) : null,
    first_thread_from: first ? formatSender(first.from) : null,
  };
}

/** A thread of the user's connected mailbox (409 when it is not connected, 404 when absent). */
async function requireThread(db: Executor, userId: string, threadId: string) {
  await requireConnectedMailbox(db, userId);
  const thread = await findThread(db, userId, threadId);
  if (!thread) throw notFound('thread', threadId);
  return thread;
}

// ---------------------------------------------------------------------------------------------------
// Reads

export async function getTask(db: Executor, userId: string, taskId: string): Promise<Task> {
  return viewOf(db, await requireTask(db, userId, taskId));
}

/** Exactly one of `list_id` or `board_id`. `completed` keeps only tasks in that state; left out, both. */
export interface TaskFilter {
  list_id?: string | undefined;
  board_id?: string | undefined;
  completed?: boolean | undefined;
}

type ListedRow = TaskRow & { list_position: number };

interface Listing {
  /** Sort key: a list's tasks by position; a board's by list position, then task position. */
  sort: readonly string[];
  keyOf: (row: ListedRow) => (string | number)[];
  /** The listed rows in order, after a cursor and up to a count when given. */
  rows: (after: RawBuilder<SqlBool> | null, take?: number) => Promise<ListedRow[]>;
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
 * What a listing reads. A list's tasks need no join to show their place (it is known from the access
 * check); a board's join their list for its name and order. Assignees are added afterwards.
 */
async function listing(db: Executor, userId: string, filter: TaskFilter): Promise<Listing> {
  const completed = filter.completed === undefined ? null : filter.completed ? 1 : 0;
  if (filter.list_id !== undefined) {
    const list = await requireList(db, userId, filter.list_id);
    const place = {
      list_name: list.name,
      list_position: list.position,
      board_id: list.board_id,
      board_name: list.board.name,
    };
    return {
      sort: ['tasks.position', 'tasks.id'],
      keyOf: (row) => [row.position, row.id],
      rows: async (after, take) => {
        if (after === null && completed === null && take !== undefined) {
          return withAssignees(db, await firstPageOfList.execute(db, list.id, take), place);
        }
        let query = selectBareTasks(db)
          .where('tasks.list_id', '=', list.id)
          .where('tasks.archived_at', 'is', null);
        if (completed !== null) query = query.where('tasks.completed', '=', completed);
        if (after) query = query.where(after);
        query = query.orderBy('tasks.position').orderBy('tasks.id');
        return withAssignees(db, await (take === undefined ? query : query.limit(take)).execute(), place);
      },
    };
  }
  if (filter.board_id === undefined) throw invalidField('list_id', 'send exactly one of list_id or board_id');
  const board = await requireBoard(db, userId, filter.board_id);
  const place = { board_id: board.id, board_name: board.name };
  return {
    sort: ['lists.position', 'lists.id', 'tasks.position', 'tasks.id'],
    keyOf: (row) => [row.list_position, row.list_id, row.position, row.id],
    rows: async (after, take) => {
      let query = selectBareTasks(db)
        .innerJoin('lists', 'lists.id', 'tasks.list_id')
        .select(['lists.name as list_name', 'lists.position as list_position'])
        .where('lists.board_id', '=', board.id)
        .where('tasks.archived_at', 'is', null);
      if (completed !== null) query = query.where('tasks.completed', '=', completed);
      if (after) query = query.where(after);
      query = query
        .orderBy('lists.position')
        .orderBy('lists.id')
        .orderBy('tasks.position')
        .orderBy('tasks.id');
      return withAssignees(db, await (take === undefined ? query : query.limit(take)).execute(), place);
    },
  };
}

/**
 * A page of the tasks of a list or a board, top to bottom; archived tasks are never listed. Four
 * queries whatever the page size: access, the page, its threads, its custom values (and one for the
 * assignees, when any task on the page has one).
 */
export async function listTasks(
  db: Executor,
  userId: string,
  filter: TaskFilter,
  page: PageRequest,
): Promise<Page<Task>> {
  const scope = await listing(db, userId, filter);
  const result = await paginate(page, scope.sort, scope.rows, scope.keyOf);
  const rows = result.items;
  // A list's page is a run of its tasks in (position, id) order.
  const window =
    filter.list_id !== undefined && rows.length > 0
      ? { list_id: rows[0]!.list_id, first: rows[0]!, last: rows.at(-1)! }
      : undefined;
  return { items: await toTasks(db, rows, window), pagination: result.pagination };
}

/** Every listed task of a list or a board, unpaginated (v1 answers whole lists). */
export async function listAllTasks(db: Executor, userId: string, filter: TaskFilter): Promise<Task[]> {
  const scope = await listing(db, userId, filter);
  return toTasks(db, await scope.rows(null));
}

// ---------------------------------------------------------------------------------------------------
// Create

export interface NewTask extends Placement {
  list_id: string;
  /** Required for a plain task; from a thread it defaults to the thread's subject. */
  title?: string | undefined;
  notes?: string | null | undefined;
  due_at?: string | null | undefined;
  /** Creates the task from this thread of the user's mailbox and links it. */
  thread_id?: string | undefined;
  /** With thread_id (v1): the message the task was made from; must be in the thread. */
  message_id?: string | undefined;
  /** With thread_id: also archive the thread (remove INBOX). */
  archive?: boolean | undefined;
  /** Left out: `sale` on a sales board, `task` elsewhere. `sale` is only valid on a sales board. */
  content_type?: 'task' | 'sale' | undefined;
}

/**
 * Creates a task, plain or from a thread, at its placement (top by default). Built from what is
 * already known, so the answer costs no re-read. Records task.created.
 */
export async function createTask(tx: Executor, userId: string, input: NewTask, now: Date): Promise<Task> {
  const list = await requireList(tx, userId, input.list_id);
  const onSalesBoard = list.board.board_type === SALES_BOARD;
  if (input.content_type === 'sale' && !onSalesBoard) {
    throw invalidField('content_type', 'sale cards can only be created on a sales board');
  }
  const contentType = input.content_type ?? (onSalesBoard ? 'sale' : 'task');
  const thread = input.thread_id === undefined ? null : await requireThread(tx, userId, input.thread_id);
  if (
    thread &&
    input.message_id !== undefined &&
    !thread.messages.some((message) => message.id === input.message_id)
  ) {
    throw notFound('message', input.message_id);
  }
  const title = input.title ?? thread?.subject ?? '(no subject)';
  const position = await landingPosition(tx, userId, list.id, input);

  const at = now.toISOString();
  const row = {
    id: newId('tsk'),
    list_id: list.id,
    title,
    content_type: contentType,
    notes: input.notes ?? null,
    shade: 'none',
    completed: 0,
    due_at: input.due_at == null ? null : utc(input.due_at),
    created_at: at,
    updated_at: at,
    assignee_id: null,
    contact_id: null,
    deal_value: null,
    deal_source: null,
    deal_close_date: null,
    deal_loss_reason: null,
    archived_at: null,
    position,
    ...(thread
      ? firstThreadColumns(thread)
      : { first_thread_title: null, first_thread_received_at: null, first_thread_from: null }),
  } satisfies TasksTable;
  await insertTask(tx, row);
  if (thread) {
    await tx
      .insertInto('task_threads')
      .values({ task_id: row.id, thread_id: thread.threadId, position: 0 })
      .execute();
    if (input.archive) await archiveThread(tx, userId, thread.threadId);
  }

  const details: TaskDetails = {
    threadIds: new Map(thread ? [[row.id, [thread.threadId]]] : []),
    customFields: new Map(),
  };
  const task = toTask({ ...row, ...placeOf(list), assignee_name: null, assignee_email: null }, details);
  await record(tx, 'created', task, list.board.team_id, now);
  return task;
}

const insertTask = prepareInsert('tasks', [
  'id',
  'list_id',
  'title',
  'content_type',
  'notes',
  'shade',
  'completed',
  'due_at',
  'created_at',
  'updated_at',
  'assignee_id',
  'contact_id',
  'deal_value',
  'deal_source',
  'deal_close_date',
  'deal_loss_reason',
  'archived_at',
  'position',
  'first_thread_title',
  'first_thread_received_at',
  'first_thread_from',
]);

function placeOf(list: ListAccess): TaskPlace {
  return { list_name: list.name, board_id: list.board.id, board_name: list.board.name };
}

// ---------------------------------------------------------------------------------------------------
// Update, complete, assign

export interface TaskPatch {
  shade?: Shade | undefined;
  /** Only the fields named change; a null or `[]` value clears that field. */
  custom_fields?: CustomFieldValueInput[] | undefined;
}

/** Shade and custom values. Answers the full updated Task; records task.updated. */
export async function updateTask(
  tx: Executor,
  userId: string,
  taskId: string,
  patch: TaskPatch,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  if (patch.custom_fields !== undefined && patch.custom_fields.length > 0) {
    const changes = checkFieldValues(await boardFields(tx, row.board_id), patch.custom_fields);
    if (changes.cleared.length > 0) {
      await tx
        .deleteFrom('task_custom_values')
        .where('task_id', '=', row.id)
        .where('field_id', 'in', changes.cleared)
        .execute();
    }
    await upsertValues(
      tx,
      changes.set.map((change) => ({ task_id: row.id, ...change })),
    );
  }
  const shade = patch.shade ?? row.shade;
  await tx
    .updateTable('tasks')
    .set({ shade, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const task = await viewOf(tx, { ...row, shade });
  await record(tx, 'updated', task, row.team_id, now);
  return task;
}

/**
 * Tasks whose custom values changed because their field did (an option removed, see
 * updateCustomField): each gets a new updated_at and records task.updated, as a PATCH would.
 */
export async function recordFieldValueChanges(
  tx: Executor,
  taskIds: readonly string[],
  now: Date,
): Promise<void> {
  for (const { rows: ids } of perStatement(taskIds)) {
    await tx.updateTable('tasks').set({ updated_at: now.toISOString() }).where('id', 'in', ids).execute();
    const rows = await selectPlacedTasks(tx).where('tasks.id', 'in', ids).orderBy('tasks.id').execute();
    const tasks = await toTasks(tx, rows);
    for (const [index, row] of rows.entries()) await record(tx, 'updated', tasks[index]!, row.team_id, now);
  }
}

async function setCompleted(
  tx: Executor,
  userId: string,
  taskId: string,
  completed: boolean,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  // Already in that state: nothing is written and no event is recorded.
  if (Boolean(row.completed) === completed) return viewOf(tx, row);
  const value = completed ? 1 : 0;
  await tx
    .updateTable('tasks')
    .set({ completed: value, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const task = await viewOf(tx, { ...row, completed: value });
  await record(tx, completed ? 'completed' : 'uncompleted', task, row.team_id, now);
  return task;
}

/** Records task.completed, unless the task was already completed. */
export function completeTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Task> {
  return setCompleted(tx, userId, taskId, true, now);
}

/** Records task.uncompleted, unless the task was not completed. */
export function uncompleteTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Task> {
  return setCompleted(tx, userId, taskId, false, now);
}

/** A member of the board's team, or the owner of a personal board; null otherwise. */
async function findBoardMember(
  db: Executor,
  row: { team_id: string | null; owner_id: string | null },
  email: string,
) {
  let query = db
    .selectFrom('users')
    .select(['users.id', 'users.email', 'users.display_name'])
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.trim().toLowerCase()));
  if (row.team_id !== null) {
    const teamId = row.team_id;
    query = query.innerJoin('team_members', (join) =>
      join.onRef('team_members.user_id', '=', 'users.id').on('team_members.team_id', '=', teamId),
    );
  } else {
    query = query.where('users.id', '=', row.owner_id ?? '');
  }
  return (await query.executeTakeFirst()) ?? null;
}

/**
 * Assigns the task to the board member with this email (400 on `assigneeEmail` when there is none, so
 * that no account's existence is revealed). Records task.assigned, unless that member already had it.
 */
export async function assignTask(
  tx: Executor,
  userId: string,
  taskId: string,
  assigneeEmail: string,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  const member = await findBoardMember(tx, row, assigneeEmail);
  if (!member) throw invalidField('assigneeEmail', `${assigneeEmail} is not a member of this board`);
  const assigned = {
    ...row,
    assignee_id: member.id,
    assignee_name: member.display_name,
    assignee_email: member.email,
  };
  if (row.assignee_id === member.id) return viewOf(tx, assigned);
  await tx
    .updateTable('tasks')
    .set({ assignee_id: member.id, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const task = await viewOf(tx, assigned);
  await record(tx, 'assigned', task, row.team_id, now);
  return task;
}

/**
 * Removes the assignee, who must be the user with this email (400 on `assigneeEmail` otherwise).
 * There is no unassigned event type: it is recorded as task.updated.
 */
export async function unassignTask(
  tx: Executor,
  userId: string,
  taskId: string,
  assigneeEmail: string,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  if (
    row.assignee_email === null ||
    row.assignee_email.toLowerCase() !== assigneeEmail.trim().toLowerCase()
  ) {
    throw invalidField('assigneeEmail', `${assigneeEmail} is not assigned to this task`);
  }
  await tx
    .updateTable('tasks')
    .set({ assignee_id: null, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const task = await viewOf(tx, { ...row, assignee_id: null, assignee_name: null, assignee_email: null });
  await record(tx, 'updated', task, row.team_id, now);
  return task;
}

// ---------------------------------------------------------------------------------------------------
// Move and reorder

export interface TaskMove extends Placement {
  list_id: string;
}

/**
 * Moves the task to another list the user can see, at its placement (top by default). Onto another
 * board, the old board's custom values are dropped and the card type follows the new board (a card
 * that stops being a sale loses its deal and contact). A move to the current list is a no-op: same
 * position, no event. Records task.moved.
 */
export async function moveTask(
  tx: Executor,
  userId: string,
  taskId: string,
  move: TaskMove,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  const list = await requireList(tx, userId, move.list_id);
  if (list.id === row.list_id) return viewOf(tx, row);
  const position = await landingPosition(tx, userId, list.id, move, row.id);

  const changes: Partial<TasksTable> = { list_id: list.id, position, updated_at: now.toISOString() };
  if (list.board_id !== row.board_id) {
    await tx.deleteFrom('task_custom_values').where('task_id', '=', row.id).execute();
    changes.content_type = list.board.board_type === SALES_BOARD ? 'sale' : 'task';
    if (changes.content_type !== 'sale') {
      Object.assign(changes, {
        contact_id: null,
        deal_value: null,
        deal_source: null,
        deal_close_date: null,
        deal_loss_reason: null,
      });
    }
  }
  await tx.updateTable('tasks').set(changes).where('id', '=', row.id).execute();
  const task = await viewOf(tx, { ...row, ...changes, ...placeOf(list) });
  await record(tx, 'moved', task, list.board.team_id, now, row.list_id);
  return task;
}

export interface TaskReorder {
  /** Wins over `position` when both are sent. */
  after_task_id?: string | undefined;
  position?: Position | undefined;
}

/**
 * Moves the task within its list: directly below `after_task_id` (a task of the same list), or to
 * the top or bottom. When the task already stands there nothing is written (`persisted: false`). The
 * answer says where it landed: the task now above it (null = top) and its 0-based index. Run in one
 * transaction, concurrent reorders are serialised by the database.
 */
export async function reorderTask(
  tx: Executor,
  userId: string,
  taskId: string,
  reorder: TaskReorder,
  now: Date,
): Promise<ReorderResult> {
  const row = await requireTask(tx, userId, taskId);
  const current = { id: row.id, position: Number(row.position) };
  const before = await neighboursOf(tx, row.list_id, current);

  let position: number | null = null;
  if (reorder.after_task_id !== undefined) {
    const anchor = await requireAnchor(tx, userId, row.list_id, reorder.after_task_id, row.id);
    if (before.previousId !== anchor.id) position = await positionAfter(tx, row.list_id, anchor, row.id);
  } else if (reorder.position === 'bottom') {
    if (before.nextId !== null) position = await edgePosition(tx, row.list_id, 'bottom');
  } else if (before.previousId !== null) {
    position = await edgePosition(tx, row.list_id, 'top');
  }
  if (position === null) {
    return { id: row.id, after_task_id: before.previousId, position_index: before.index, persisted: false };
  }

  // Position is not part of any view, so no event is recorded.
  await tx
    .updateTable('tasks')
    .set({ position, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  const after = await neighboursOf(tx, row.list_id, { id: row.id, position });
  return { id: row.id, after_task_id: after.previousId, position_index: after.index, persisted: true };
}

// ---------------------------------------------------------------------------------------------------
// Threads, archive, delete

export interface ThreadLink {
  thread_id: string;
  /** Also archive the thread (remove INBOX). */
  archive?: boolean | undefined;
}

/**
 * Links a thread of the user's mailbox (404 when absent). A thread already linked is a no-op. The
 * first link also sets `first_thread`. Records task.updated. Answers every linked thread, in link order.
 */
export async function linkThread(
  tx: Executor,
  userId: string,
  taskId: string,
  link: ThreadLink,
  now: Date,
): Promise<LinkThreadResult> {
  const row = await requireTask(tx, userId, taskId);
  const thread = await requireThread(tx, userId, link.thread_id);
  const linked = await tx
    .selectFrom('task_threads')
    .select(['thread_id', 'position'])
    .where('task_id', '=', row.id)
    .orderBy('position')
    .execute();
  const threadIds = linked.map((entry) => entry.thread_id);
  if (threadIds.includes(thread.threadId)) return { id: row.id, thread_ids: threadIds };

  const nextPosition = linked.length === 0 ? 0 : Number(linked.at(-1)!.position) + 1;
  await tx
    .insertInto('task_threads')
    .values({ task_id: row.id, thread_id: thread.threadId, position: nextPosition })
    .execute();
  const hasFirstThread =
    row.first_thread_title !== null ||
    row.first_thread_received_at !== null ||
    row.first_thread_from !== null;
  const snapshot = hasFirstThread ? {} : firstThreadColumns(thread);
  await tx
    .updateTable('tasks')
    .set({ ...snapshot, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
  if (link.archive) await archiveThread(tx, userId, thread.threadId);

  const task = await viewOf(tx, { ...row, ...snapshot });
  await record(tx, 'updated', task, row.team_id, now);
  return { id: row.id, thread_ids: task.thread_ids };
}

/**
 * Archives the task: it leaves its list's listing but stays readable by id. Records task.archived;
 * archiving an archived task changes nothing.
 */
export async function archiveTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Task> {
  const row = await requireTask(tx, userId, taskId);
  if (row.archived_at !== null) return viewOf(tx, row);
  const at = now.toISOString();
  await tx.updateTable('tasks').set({ archived_at: at, updated_at: at }).where('id', '=', row.id).execute();
  const task = await viewOf(tx, { ...row, archived_at: at });
  await record(tx, 'archived', task, row.team_id, now);
  return task;
}

/** Deletes the task with its links and values. Records task.deleted with the task as it was. */
export async function deleteTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Deleted> {
  const row = await requireTask(tx, userId, taskId);
  const task = await viewOf(tx, row);
  await tx.deleteFrom('tasks').where('id', '=', row.id).execute();
  await record(tx, 'deleted', task, row.team_id, now);
  return { id: row.id, deleted: true };
}

// ---------------------------------------------------------------------------------------------------
// Seeds

/**
 * A seed links tasks to threads by id only: give each such task the `first_thread` snapshot of its
 * first linked thread, read from whichever seeded mailbox holds it. Run once, when a seed is loaded.
 */
export async function snapshotFirstThreads(tx: Executor): Promise<void> {
  const rows = await tx
    .selectFrom('task_threads')
    .innerJoin('tasks', 'tasks.id', 'task_threads.task_id')
    .innerJoin('messages', 'messages.thread_id', 'task_threads.thread_id')
    .select([
      'task_threads.task_id',
      'task_threads.position as link_position',
      'messages.mailbox_id',
      'messages.thread_id',
      'messages.id',
      'messages.subject',
      'messages.from_email',
      'messages.from_name',
      'messages.date',
    ])
    .where('tasks.first_thread_title', 'is', null)
    .where('tasks.first_thread_from', 'is', null)
    .execute();
  type Row = (typeof rows)[number];
  // Per task: the messages of its first linked thread, in the first mailbox that holds it.
  const firstOf = new Map<string, Row[]>();
  for (const row of rows) {
    const chosen = firstOf.get(row.task_id);
    const head = chosen?.[0];
    const better =
      !head ||
      Number(row.link_position) < Number(head.link_position) ||
      (row.thread_id === head.thread_id && row.mailbox_id < head.mailbox_id);
    if (better) firstOf.set(row.task_id, [row]);
    else if (row.thread_id === head.thread_id && row.mailbox_id === head.mailbox_id) chosen!.push(row);
  }
  for (const [taskId, messages] of firstOf) {
    // Oldest first, undated messages before dated ones, as the mailbox orders a thread.
    messages.sort((a, b) =>
      a.date === b.date
        ? a.id.localeCompare(b.id)
        : a.date === null
          ? -1
          : b.date === null
            ? 1
            : Date.parse(a.date) - Date.parse(b.date) || a.id.localeCompare(b.id),
    );
    const snapshot = firstThreadColumns({
      subject: messages[0]?.subject ?? null,
      messages: messages.map((message) => ({
        id: message.id,
        from: { email: message.from_email, name: message.from_name },
        date: message.date,
      })),
    });
    await tx.updateTable('tasks').set(snapshot).where('id', '=', taskId).execute();
  }
}
