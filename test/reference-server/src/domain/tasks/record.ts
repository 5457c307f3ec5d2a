// Task events: each task command records the event of its change, in the change's transaction.
import type { CustomFieldValue, PreviousAttributes, Task } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { touchTasks } from '../../storage/tasks.ts';
import { recordTaskEvent, type TaskEventKind } from '../events/record.ts';
import { toTasks, toV1Item } from './view.ts';

/** What an event tells beside the task: `moved`, the list it left; `updated`, what changed (its values before). */
export interface EventDetails {
  fromListId?: string;
  previous?: PreviousAttributes;
}

/** Records `kind` for the task as it now stands (the v2 Task and the v1 Item alike). */
export async function record(
  tx: Executor,
  kind: TaskEventKind,
  task: Task,
  teamId: string | null,
  at: Date,
  details: EventDetails = {},
): Promise<void> {
  await recordTaskEvent(
    tx,
    {
      kind,
      task,
      item: () => toV1Item(task),
      boardId: task.board_id!,
      listId: task.list_id!,
      teamId,
      ...details,
    },
    at,
  );
}

/** Per task whose custom values changed, the fields that did with their values before. */
export type FieldValueChanges = ReadonlyMap<string, CustomFieldValue[]>;

/**
 * Tasks whose custom values changed other than by a PATCH (an option removed, see updateCustomField;
 * an AI field set, see analysis.ts): each gets a new updated_at and records task.updated, as a PATCH
 * would. Only tasks whose values really changed may be given.
 */
export async function recordFieldValueChanges(
  tx: Executor,
  changes: FieldValueChanges,
  now: Date,
): Promise<void> {
  for await (const rows of touchTasks(tx, [...changes.keys()], now.toISOString())) {
    const tasks = await toTasks(tx, rows);
    for (const [index, row] of rows.entries()) {
      await record(tx, 'updated', tasks[index]!, row.team_id, now, {
        previous: { custom_fields: changes.get(row.id)! },
      });
    }
  }
}
