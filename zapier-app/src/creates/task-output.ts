/**
 * A task as every step and trigger of the app outputs it: the service's task, with each custom field's name
 * and, for option fields (tag, status, …), the labels of the chosen options beside their ids (so a later
 * step can use "High" rather than `opt_high`), and `first_thread_id`, the first linked thread (a later
 * step replies on it; a list of IDs cannot be mapped into one Email Thread input). One read of the board's
 * fields per board, only when a task has custom field values; when it fails (e.g. a key without
 * `customfields.read`), the values go out without their names.
 */
import type { CustomField, Task, ThreadworkClient } from '@threadwork/shared';

export type TaskOutput = Task & {
  custom_fields: Array<Task['custom_fields'][number] & { name?: string; labels?: string[] }>;
  first_thread_id: string | null;
};

type LabelledValue = TaskOutput['custom_fields'][number];

/**
 * The custom fields of each of these boards, read once per board into `known` (a board already there is not
 * read again). A board whose fields cannot be read (e.g. a key without `customfields.read`) gets none.
 */
export async function readBoardFields(
  client: ThreadworkClient,
  boardIds: Iterable<string | null>,
  known: Map<string, CustomField[]>,
): Promise<Map<string, CustomField[]>> {
  for (const boardId of boardIds) {
    if (boardId === null || known.has(boardId)) continue;
    try {
      const fields: CustomField[] = [];
      for await (const field of client.customFields.list(boardId, { limit: 200 })) fields.push(field);
      known.set(boardId, fields);
    } catch {
      known.set(boardId, []);
    }
  }
  return known;
}

/** Values without their names yet (the service's own). */
const unlabelled = (values: Task['custom_fields']) => values.some((value) => !('name' in value));

/** Each value with its field's name and, for option fields, the chosen options' labels (ids kept as they are). */
export function labelValues(values: Task['custom_fields'], fields: CustomField[]): LabelledValue[] {
  return values.map((value) => {
    const field = fields.find((candidate) => candidate.id === value.field_id);
    if (field === undefined) return value;
    const ids =
      value.value === null || value.value === undefined
        ? []
        : Array.isArray(value.value)
          ? value.value
          : [value.value];
    const labels =
      field.options === undefined || field.options === null
        ? undefined
        : ids.map((id) => field.options?.find((option) => option.id === id)?.label ?? String(id));
    return { ...value, name: field.name, ...(labels === undefined ? {} : { labels }) };
  });
}

export async function withFieldLabels<T extends Task>(
  client: ThreadworkClient,
  tasks: T[],
  known?: Map<string, CustomField[]>,
): Promise<Array<T & TaskOutput>> {
  const boards = await readBoardFields(
    client,
    tasks.filter((task) => unlabelled(task.custom_fields)).map((task) => task.board_id),
    known ?? new Map<string, CustomField[]>(),
  );
  return tasks.map((task) => {
    const first_thread_id = task.thread_ids[0] ?? null;
    if (!unlabelled(task.custom_fields)) return { ...task, first_thread_id };
    // Labels added beside the service's own fields (its ids stay as they were).
    const custom_fields = labelValues(task.custom_fields, boards.get(task.board_id ?? '') ?? []);
    return { ...task, first_thread_id, custom_fields };
  });
}

/**
 * What a v1 hook item gains from the task's v2 view (docs/zapier-app.md, "Triggers"): its linked threads,
 * its board's and list's names as they are now, and its labelled custom fields. An item whose task is
 * gone (deleted, or no longer visible) keeps the v1 fields alone: these keys are empty.
 */
export interface ItemExtras {
  thread_ids: string[];
  first_thread_id: string | null;
  board_name: string | null;
  list_name: string | null;
  custom_fields: TaskOutput['custom_fields'];
}

export function itemExtras(task: TaskOutput | undefined): ItemExtras {
  return {
    thread_ids: task?.thread_ids ?? [],
    first_thread_id: task?.first_thread_id ?? null,
    board_name: task?.board_name ?? null,
    list_name: task?.list_name ?? null,
    custom_fields: task?.custom_fields ?? [],
  };
}
