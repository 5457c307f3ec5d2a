// Reading tasks: one by id, and the listing of a list or a board (paginated for v2, whole for v1).
import type { ConsoleTaskEvent, ListTasksQuery, Task } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { paginate } from '../../storage/pagination.ts';
import {
  type ListingScope,
  listedTasks,
  listingKey,
  listingSort,
  taskEventRows,
} from '../../storage/tasks.ts';
import { requireBoard, requireList } from '../access.ts';
import { invalidField } from '../errors.ts';
import type { Page, PageRequest } from '../pagination.ts';
import { requireTask, toTasks, viewOf } from './view.ts';

export async function getTask(db: Executor, userId: string, taskId: string): Promise<Task> {
  return viewOf(db, await requireTask(db, userId, taskId));
}

/** The task and when it was archived (null while it stands on its list): the Task itself does not say. */
export async function getTaskAndArchive(
  db: Executor,
  userId: string,
  taskId: string,
): Promise<{ task: Task; archivedAt: string | null }> {
  const row = await requireTask(db, userId, taskId);
  return { task: await viewOf(db, row), archivedAt: row.archived_at };
}

/** The events recorded for a task the user may see, oldest first (moves name their lists). */
export async function taskEvents(db: Executor, userId: string, taskId: string): Promise<ConsoleTaskEvent[]> {
  const task = await requireTask(db, userId, taskId);
  const rows = await taskEventRows(db, task.id);
  return rows.map((row) => {
    const event: ConsoleTaskEvent = { id: row.id, type: row.type, created_at: row.created_at };
    if (row.type === 'task.moved') {
      const data = JSON.parse(row.data) as { from_list_id?: string; to_list_id?: string };
      if (data.from_list_id) event.from_list_id = data.from_list_id;
      if (data.to_list_id) event.to_list_id = data.to_list_id;
    } else if (row.type === 'task.updated') {
      const data = JSON.parse(row.data) as { previous_attributes?: Record<string, unknown> };
      if (data.previous_attributes) event.changed = Object.keys(data.previous_attributes);
    }
    return event;
  });
}

/** Exactly one of `list_id` or `board_id`. `completed` keeps only tasks in that state; left out, both. */
export type TaskFilter = Omit<ListTasksQuery, 'limit' | 'cursor'>;

/** Which tasks a listing shows, once the user may see the list or board (404 / 402 otherwise). */
async function scopeOf(db: Executor, userId: string, filter: TaskFilter): Promise<ListingScope> {
  if (filter.list_id !== undefined) {
    const list = await requireList(db, userId, filter.list_id);
    return {
      list: {
        id: list.id,
        name: list.name,
        position: list.position,
        board_id: list.board_id,
        board_name: list.board.name,
      },
    };
  }
  if (filter.board_id === undefined) throw invalidField('list_id', 'send exactly one of list_id or board_id');
  const board = await requireBoard(db, userId, filter.board_id);
  return { board: { id: board.id, name: board.name } };
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
  const scope = await scopeOf(db, userId, filter);
  const result = await paginate(
    page,
    listingSort(scope),
    (after, take) => listedTasks(db, scope, filter.completed, after, take),
    (row) => listingKey(scope, row),
  );
  const rows = result.items;
  // A list's page is a run of its tasks in (position, id) order.
  const window =
    'list' in scope && rows.length > 0
      ? { list_id: rows[0]!.list_id, first: rows[0]!, last: rows.at(-1)! }
      : undefined;
  return { items: await toTasks(db, rows, window), pagination: result.pagination };
}

/** Every listed task of a list or a board, unpaginated (v1 answers whole lists). */
export async function listAllTasks(db: Executor, userId: string, filter: TaskFilter): Promise<Task[]> {
  const scope = await scopeOf(db, userId, filter);
  return toTasks(db, await listedTasks(db, scope, filter.completed, null));
}
