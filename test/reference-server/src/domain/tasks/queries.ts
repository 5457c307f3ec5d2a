// Reading tasks: one by id, and the listing of a list or a board (paginated for v2, whole for v1).
import type { ConsoleTaskEvent, ListTasksQuery, Task } from '@threadwork/shared/schemas';
import type { RawBuilder, SqlBool } from 'kysely';
import type { Executor } from '../../db/executor.ts';
import { integerParam, prepareQuery, textParam } from '../../db/prepared.ts';
import { requireBoard, requireList } from '../access.ts';
import { invalidField } from '../errors.ts';
import { type Page, type PageRequest, paginate } from '../pagination.ts';
import { requireTask, selectBareTasks, type TaskRow, toTasks, viewOf, withAssignees } from './view.ts';

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
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('task_id', '=', task.id)
    .orderBy('seq')
    .execute();
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

/** Exactly one of `list_id` or `board_id`. `completed` keeps only tasks in that state; left out, both. */
export type TaskFilter = Omit<ListTasksQuery, 'limit' | 'cursor'>;

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
