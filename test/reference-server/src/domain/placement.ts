// Where a task lands in a list. Order is the integer `tasks.position`, smaller = higher, ties broken
// by id. The top is min − 1 and the bottom max + 1 (one read, no renumbering); "after a task" takes
// the free slot below the anchor, or makes one by shifting every task below it down by one in a
// single statement (storage/tasks.ts). Archived tasks keep their slot, so positions stay unique within
// a list; indexes (`position_index`) are counted among the tasks that are not archived.
import type { Position } from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import { edgePosition, findAnchor, slotBelow } from '../storage/tasks.ts';
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
  const anchor = await findAnchor(db, anchorId);
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
  return { id: anchor.id, position: anchor.position };
}

/** The slot directly below the anchor, making room when the next task stands right there. */
export function positionAfter(
  db: Executor,
  listId: string,
  anchor: Anchor,
  movingTaskId?: string,
): Promise<number> {
  return slotBelow(db, listId, anchor.position, movingTaskId);
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
