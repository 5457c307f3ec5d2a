// A task as a user may see it: the v2 Task and the v1 Item of a task's row (its fields as
// db/task-fields.ts declares them, its place, links and values), and the access rule applied to a
// task read by id.
import { type Task, V1Item } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { type PlacedTaskField, taskFields, utc } from '../../db/task-fields.ts';
import type { Intent } from '../../storage/locks.ts';
import {
  findTask,
  type ListWindow,
  loadTaskDetails,
  type TaskAccessRow,
  type TaskDetails,
  type TaskPlace,
  type TaskRow,
} from '../../storage/tasks.ts';
import { checkBoardAccess, type ListAccess } from '../access.ts';
import { notFound } from '../errors.ts';

export type { TaskDetails, TaskRow };

/**
 * The v2 Task of one row: its fields as the table declares them, then its place, links and values, in
 * the shared schema's order. `fields`: the table's derivation (a test's larger one, say).
 */
export function toTask(row: TaskRow, details: TaskDetails, fields = taskFields): Task {
  const placed: Pick<Task, PlacedTaskField> = {
    id: row.id,
    list_id: row.list_id,
    list_name: row.list_name,
    board_id: row.board_id,
    board_name: row.board_name,
    custom_fields: details.customFields.get(row.id) ?? [],
    thread_ids: details.threadIds.get(row.id) ?? [],
    assignee: row.assignee_email === null ? null : { name: row.assignee_name, email: row.assignee_email },
  };
  return fields.task(row, placed) as Task;
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

/** The Item's fields in the shared schema's order. */
const V1_ITEM_KEYS = Object.keys(V1Item.shape) as (keyof V1Item)[];

/** The v1 Item (also every v1 hook's body) of a v2 Task: same data, legacy names, UTC timestamps. */
export function toV1Item(task: Task): V1Item {
  return v1ItemOf(task, taskFields);
}

/**
 * `toV1Item` for a table of fields (the server's, or a test's larger one): the Item's fields in the
 * shared schema's order, then any the table shows that the schema does not have.
 */
export function v1ItemOf(task: Task, fields: typeof taskFields): V1Item {
  const assignee = task.assignee;
  const placed: Partial<V1Item> = {
    id: task.id,
    boardName: task.board_name ?? '',
    boardId: task.board_id ?? '',
    listName: task.list_name ?? '',
    listId: task.list_id ?? '',
    // v1 §2: the assignee's name, "" when there is none (a nameless assignee too); the email is only
    // ever in assignedToEmail.
    assignedTo: assignee?.name ?? '',
    assignedToEmail: assignee?.email ?? '',
  };
  const shown = fields.v1(task);
  const item: Record<string, unknown> = {};
  for (const key of V1_ITEM_KEYS) item[key] = key in shown ? shown[key] : placed[key];
  for (const [key, value] of Object.entries(shown)) if (!(key in item)) item[key] = value;
  return item as V1Item;
}

/** A task row if the user may see it (404 otherwise, 402 when its team is unpaid). */
export function visibleTask(row: TaskAccessRow | undefined, userId: string, taskId: string): TaskAccessRow {
  if (!row || !checkBoardAccess(row, userId)) throw notFound('task', taskId);
  return row;
}

/**
 * The task, if the user may see it: one query with its list, board and assignee (404 otherwise, 402
 * when its team is unpaid). `change`: the write reads the task to change it.
 */
export async function requireTask(db: Executor, userId: string, taskId: string, intent: Intent = 'read') {
  return visibleTask(await findTask(db, userId, taskId, intent), userId, taskId);
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
export function firstThreadOf(thread: ThreadLike): NonNullable<Task['first_thread']> {
  const first = thread.messages[0];
  return {
    title: thread.subject,
    received_at: first?.date ? utc(first.date) : null,
    from: first ? formatSender(first.from) : null,
  };
}
