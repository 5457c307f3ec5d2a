// Task events: each task command records the event of its change, in the change's transaction.
import type { Task } from '@threadwork/shared/schemas';
import { type Executor, perStatement } from '../../db/database.ts';
import { recordTaskEvent, type TaskEventKind } from '../events/record.ts';
import { selectPlacedTasks, toTasks, toV1Item } from './view.ts';

/** Records `kind` for the task as it now stands (the v2 Task and the v1 Item alike). */
export async function record(
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
