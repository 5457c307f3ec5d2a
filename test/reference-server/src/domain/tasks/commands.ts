// Task commands: how each task is created, changed, completed, assigned, moved, reordered, linked to
// threads, archived and deleted, for v1 and v2 alike. Each takes the transaction it runs in
// (`runInTransaction`), checks the task against the access rule (404 / 402) and records its event.
import {
  type CreateTaskRequest,
  type Deleted,
  type LinkThreadRequest,
  type LinkThreadResult,
  MAX_TITLE_LENGTH,
  type MoveTaskRequest,
  type PreviousAttributes,
  type ReorderResult,
  type ReorderTaskRequest,
  type Task,
  type UpdateTaskRequest,
  type V1CreateFromEmailRequest,
} from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import type { TasksTable } from '../../db/schema.ts';
import { taskFields, utc } from '../../db/task-fields.ts';
import { findBoardMember } from '../../storage/access.ts';
import { upsertValues } from '../../storage/custom-fields.ts';
import {
  clearCustomValues,
  deleteTask as deleteTaskRow,
  edgePosition,
  findTaskToMove,
  findTaskToReorder,
  linkThread as insertLink,
  insertTask,
  linkedThreads,
  neighboursOf,
  updateTask as updateTaskRow,
} from '../../storage/tasks.ts';
import { requireList, visibleList } from '../access.ts';
import { boardFieldsOfTask, checkFieldValues } from '../custom-fields.ts';
import { invalidField, notFound } from '../errors.ts';
import { noteChange } from '../events/feed.ts';
import { newId } from '../ids.ts';
import { archiveThread, findThread, requireConnectedMailbox } from '../mailbox/index.ts';
import { landingPosition, positionAfter, requireAnchor } from '../placement.ts';
import { record } from './record.ts';
import {
  firstThreadOf,
  placeOf,
  requireTask,
  type TaskDetails,
  toTask,
  viewOf,
  visibleTask,
} from './view.ts';

const SALES_BOARD = 'sales';

/**
 * A task's title taken from a thread's subject: mail may carry a subject of any length, a title holds at
 * most MAX_TITLE_LENGTH characters, so a longer one is cut there (never inside a surrogate pair), as the
 * extension cuts the subject it prefills (docs/errors.md#lengths).
 */
function titleOfSubject(subject: string | null): string {
  if (subject === null) return '(no subject)';
  if (subject.length <= MAX_TITLE_LENGTH) return subject;
  const end = /[\uD800-\uDBFF]/.test(subject[MAX_TITLE_LENGTH - 1]!)
    ? MAX_TITLE_LENGTH - 1
    : MAX_TITLE_LENGTH;
  return subject.slice(0, end);
}

/** A thread of the user's connected mailbox (409 when it is not connected, 404 when absent). */
async function requireThread(db: Executor, userId: string, threadId: string) {
  await requireConnectedMailbox(db, userId);
  const thread = await findThread(db, userId, threadId);
  if (!thread) throw notFound('thread', threadId);
  return thread;
}

// ---------------------------------------------------------------------------------------------------
// Create

/**
 * What creating a task takes: the v2 request, where v1 may send null for "none", plus what only v1's
 * createFromEmail sends (the message the task was made from, which must be in the thread, and the
 * card type: left out, `sale` on a sales board and `task` elsewhere).
 */
export type NewTask = Omit<CreateTaskRequest, 'notes' | 'due_at'> & {
  notes?: string | null | undefined;
  due_at?: string | null | undefined;
  message_id?: V1CreateFromEmailRequest['messageId'] | undefined;
  content_type?: NonNullable<V1CreateFromEmailRequest['listItem']>['contentType'];
};

/**
 * Creates a task, plain or from a thread, at its placement (top by default). Built from what is
 * already known, so the answer costs no re-read. Records task.created.
 */
export async function createTask(tx: Executor, userId: string, input: NewTask, now: Date): Promise<Task> {
  // A task added at the top or bottom of a list changes nothing else (no thread, no other task moves).
  const adds = input.thread_id === undefined && input.after_task_id === undefined;
  const list = await requireList(tx, userId, input.list_id, adds ? 'add' : 'change');
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
  const title = input.title ?? titleOfSubject(thread?.subject ?? null);
  // After a task: its slot is made now. At the top or the bottom: the insert itself reads it (the row's
  // `position` is then a stand-in no view shows).
  const at =
    input.after_task_id === undefined
      ? (input.position ?? 'top')
      : await landingPosition(tx, userId, list.id, input);

  const created = now.toISOString();
  const row = {
    id: newId('tsk'),
    list_id: list.id,
    position: typeof at === 'number' ? at : 0,
    assignee_id: null,
    archived_at: null,
    updated_at: created,
    ...taskFields.columnsOf({
      title,
      content_type: contentType,
      notes: input.notes ?? null,
      due_at: input.due_at == null ? null : utc(input.due_at),
      created_at: created,
      first_thread: thread ? firstThreadOf(thread) : null,
    }),
  } satisfies TasksTable;
  await insertTask(tx, row, at);
  if (thread) {
    await insertLink(tx, row.id, thread.threadId, 0);
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

// ---------------------------------------------------------------------------------------------------
// Update, complete, assign

export type TaskPatch = UpdateTaskRequest;

/**
 * Shade and custom values. Answers the full updated Task. Records task.updated with what changed
 * (`previous_attributes`), compared with the task as read under its lock; a patch that changes nothing
 * (the shade it has, values it holds, clearing an empty field) writes nothing and records no event.
 */
export async function updateTask(
  tx: Executor,
  userId: string,
  taskId: string,
  patch: TaskPatch,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId, 'change');
  const previous: PreviousAttributes = {};
  const shade = row.shade || 'none';
  if (patch.shade !== undefined && patch.shade !== shade) previous.shade = shade;
  if (patch.custom_fields !== undefined && patch.custom_fields.length > 0) {
    const { fields, values } = await boardFieldsOfTask(tx, row.board_id, row.id);
    const changes = checkFieldValues(fields, patch.custom_fields, values);
    if (changes.cleared.length > 0) await clearCustomValues(tx, row.id, changes.cleared);
    await upsertValues(
      tx,
      changes.set.map((change) => ({ task_id: row.id, ...change })),
    );
    if (changes.previous.length > 0) previous.custom_fields = changes.previous;
  }
  if (Object.keys(previous).length === 0) return viewOf(tx, row);
  const changed = taskFields.changedColumnsOf({ shade: patch.shade ?? shade });
  await updateTaskRow(tx, row.id, { ...changed, updated_at: now.toISOString() });
  const task = await viewOf(tx, { ...row, ...changed });
  await record(tx, 'updated', task, row.team_id, now, { previous });
  return task;
}

async function setCompleted(
  tx: Executor,
  userId: string,
  taskId: string,
  completed: boolean,
  now: Date,
): Promise<Task> {
  const row = await requireTask(tx, userId, taskId, 'change');
  // Already in that state: nothing is written and no event is recorded.
  if (Boolean(row.completed) === completed) return viewOf(tx, row);
  const changed = taskFields.changedColumnsOf({ completed });
  await updateTaskRow(tx, row.id, { ...changed, updated_at: now.toISOString() });
  const task = await viewOf(tx, { ...row, ...changed });
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
  const row = await requireTask(tx, userId, taskId, 'change');
  const member = await findBoardMember(tx, row, assigneeEmail);
  if (!member) throw invalidField('assigneeEmail', `${assigneeEmail} is not a member of this board`);
  const assigned = {
    ...row,
    assignee_id: member.id,
    assignee_name: member.display_name,
    assignee_email: member.email,
  };
  if (row.assignee_id === member.id) return viewOf(tx, assigned);
  await updateTaskRow(tx, row.id, { assignee_id: member.id, updated_at: now.toISOString() });
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
  const row = await requireTask(tx, userId, taskId, 'change');
  if (
    row.assignee_email === null ||
    row.assignee_email.toLowerCase() !== assigneeEmail.trim().toLowerCase()
  ) {
    throw invalidField('assigneeEmail', `${assigneeEmail} is not assigned to this task`);
  }
  await updateTaskRow(tx, row.id, { assignee_id: null, updated_at: now.toISOString() });
  const task = await viewOf(tx, { ...row, assignee_id: null, assignee_name: null, assignee_email: null });
  await record(tx, 'updated', task, row.team_id, now, {
    previous: { assignee: { name: row.assignee_name, email: row.assignee_email } },
  });
  return task;
}

// ---------------------------------------------------------------------------------------------------
// Move and reorder

export type TaskMove = MoveTaskRequest;

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
  const found = await findTaskToMove(tx, userId, taskId, move.list_id);
  const row = visibleTask(found.task, userId, taskId);
  const list = visibleList(found.destination, userId);
  if (!list) throw notFound('list', move.list_id);
  if (list.id === row.list_id) return viewOf(tx, row);
  const position = await landingPosition(tx, userId, list.id, move, row.id);

  const changes: Partial<TasksTable> = { list_id: list.id, position, updated_at: now.toISOString() };
  if (list.board_id !== row.board_id) {
    await clearCustomValues(tx, row.id);
    const contentType = list.board.board_type === SALES_BOARD ? 'sale' : 'task';
    // A card that stops being a sale loses its deal and contact.
    Object.assign(
      changes,
      taskFields.changedColumnsOf(
        contentType === 'sale'
          ? { content_type: contentType }
          : { content_type: contentType, contact_id: null, deal: null },
      ),
    );
  }
  await updateTaskRow(tx, row.id, changes);
  const task = await viewOf(tx, { ...row, ...changes, ...placeOf(list) });
  await record(tx, 'moved', task, list.board.team_id, now, { fromListId: row.list_id });
  return task;
}

export type TaskReorder = ReorderTaskRequest;

/**
 * Moves the task within its list: directly below `after_task_id` (a task of the same list), or to
 * the top or bottom. When the task already stands there nothing is written. The answer says where it
 * landed: the task now above it (null = top) and its 0-based index, and `persisted: true`, as the task
 * stands where it was asked to go (also when it already did, so a client never retries a no-op). Run in one
 * transaction, concurrent reorders are serialised by the database.
 */
export async function reorderTask(
  tx: Executor,
  userId: string,
  taskId: string,
  reorder: TaskReorder,
  now: Date,
): Promise<ReorderResult> {
  const row = visibleTask(await findTaskToReorder(tx, userId, taskId), userId, taskId);
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
    return { id: row.id, after_task_id: before.previousId, position_index: before.index, persisted: true };
  }

  // Position is not part of any view, so no event is recorded; but the console's open boards show the
  // order, so the change feed hears of it.
  await updateTaskRow(tx, row.id, { position, updated_at: now.toISOString() });
  noteChange(tx, {
    topic: 'task',
    type: 'task.reordered',
    task_id: row.id,
    board_id: row.board_id,
    list_id: row.list_id,
  });
  const after = await neighboursOf(tx, row.list_id, { id: row.id, position });
  return { id: row.id, after_task_id: after.previousId, position_index: after.index, persisted: true };
}

// ---------------------------------------------------------------------------------------------------
// Threads, archive, delete

export type ThreadLink = LinkThreadRequest;

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
  const row = await requireTask(tx, userId, taskId, 'change');
  const thread = await requireThread(tx, userId, link.thread_id);
  const { threadIds, next } = await linkedThreads(tx, row.id);
  if (threadIds.includes(thread.threadId)) return { id: row.id, thread_ids: threadIds };

  await insertLink(tx, row.id, thread.threadId, next);
  const hasFirstThread = taskFields.read(row).first_thread !== null;
  const snapshot = hasFirstThread ? {} : taskFields.changedColumnsOf({ first_thread: firstThreadOf(thread) });
  await updateTaskRow(tx, row.id, { ...snapshot, updated_at: now.toISOString() });
  if (link.archive) await archiveThread(tx, userId, thread.threadId);

  const task = await viewOf(tx, { ...row, ...snapshot });
  await record(tx, 'updated', task, row.team_id, now, {
    previous: {
      thread_ids: threadIds,
      ...(task.first_thread && !hasFirstThread ? { first_thread: null } : {}),
    },
  });
  return { id: row.id, thread_ids: task.thread_ids };
}

/**
 * Archives the task: it leaves its list's listing but stays readable by id. Records task.archived;
 * archiving an archived task changes nothing.
 */
export async function archiveTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Task> {
  const row = await requireTask(tx, userId, taskId, 'change');
  if (row.archived_at !== null) return viewOf(tx, row);
  const at = now.toISOString();
  await updateTaskRow(tx, row.id, { archived_at: at, updated_at: at });
  const task = await viewOf(tx, { ...row, archived_at: at });
  await record(tx, 'archived', task, row.team_id, now);
  return task;
}

/** Deletes the task with its links and values. Records task.deleted with the task as it was. */
export async function deleteTask(tx: Executor, userId: string, taskId: string, now: Date): Promise<Deleted> {
  const row = await requireTask(tx, userId, taskId, 'change');
  const task = await viewOf(tx, row);
  await deleteTaskRow(tx, row.id);
  await record(tx, 'deleted', task, row.team_id, now);
  return { id: row.id, deleted: true };
}
