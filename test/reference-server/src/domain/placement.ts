// Where a task lands in a list. Order is the integer `tasks.position`, smaller = higher, ties broken
// by id. The top is min − 1 and the bottom max + 1 (one read, no renumbering); "after a task" takes
// the free slot below the anchor, or makes one by shifting every task below it down by one in a
// single statement. Archived tasks keep their slot, so positions stay unique within a list; indexes
// (`position_index`) are counted among the tasks that are not archived.
import type { Position } from '@threadwork/shared/schemas';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/executor.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';
import { requireList } from './access.ts';
import { invalidField, notFound, ServiceError } from './errors.ts';

/** `after_task_id` wins over `position`; neither means the top. */
export interface Placement {
  position?: Position | undefined;
  after_task_id?: string | undefined;
}

export interface Anchor {
  id: string;
  position: number;
}

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
 * and used in one statement, so a create costs no round trip for it (the list is locked: see
 * requireList).
 */
export function edgePositionSql(listId: string, edge: Position): RawBuilder<number> {
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

/**
 * The task to place another one after: a task of `listId` that is not archived and is not the task
 * being placed. An anchor the caller cannot see answers 404, like any id; one the caller can see in
 * another list is a validation error on `after_task_id`.
 */
export async function requireAnchor(
  db: Executor,
  userId: string,
  listId: string,
  anchorId: string,
  movingTaskId?: string,
): Promise<Anchor> {
  const anchor = await db
    .selectFrom('tasks')
    .select(['id', 'list_id', 'position', 'archived_at'])
    .where('id', '=', anchorId)
    .executeTakeFirst();
  if (!anchor) throw notFound('task', anchorId);
  if (anchor.list_id !== listId) {
    try {
      await requireList(db, userId, anchor.list_id);
    } catch (error) {
      if (error instanceof ServiceError) throw notFound('task', anchorId);
      throw error;
    }
    throw invalidField('after_task_id', `task ${anchorId} is not in list ${listId}`);
  }
  if (anchor.id === movingTaskId) throw invalidField('after_task_id', 'a task cannot be placed after itself');
  if (anchor.archived_at !== null) throw invalidField('after_task_id', `task ${anchorId} is archived`);
  return { id: anchor.id, position: Number(anchor.position) };
}

/**
 * The slot directly below the anchor: free already when the next task (other than the one being
 * placed) is further down, otherwise made by moving every task below the anchor down one.
 */
export async function positionAfter(
  db: Executor,
  listId: string,
  anchor: Anchor,
  movingTaskId?: string,
): Promise<number> {
  const slot = anchor.position + 1;
  let next = db
    .selectFrom('tasks')
    .select((eb) => eb.fn.min('position').as('position'))
    .where('list_id', '=', listId)
    .where('position', '>', anchor.position);
  if (movingTaskId !== undefined) next = next.where('id', '!=', movingTaskId);
  const below = (await next.executeTakeFirst())?.position;
  if (below == null || Number(below) > slot) return slot;
  let shift = db
    .updateTable('tasks')
    .set((eb) => ({ position: eb('position', '+', 1) }))
    .where('list_id', '=', listId)
    .where('position', '>', anchor.position);
  if (movingTaskId !== undefined) shift = shift.where('id', '!=', movingTaskId);
  await shift.execute();
  return slot;
}

/** The position a task gets in `listId` for a placement, making room when needed. */
export async function landingPosition(
  db: Executor,
  userId: string,
  listId: string,
  placement: Placement,
  movingTaskId?: string,
): Promise<number> {
  if (placement.after_task_id !== undefined) {
    const anchor = await requireAnchor(db, userId, listId, placement.after_task_id, movingTaskId);
    return positionAfter(db, listId, anchor, movingTaskId);
  }
  return edgePosition(db, listId, placement.position ?? 'top');
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
