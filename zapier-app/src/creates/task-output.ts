/**
 * What task-returning actions and searches add to the service's task: each custom field's name and, for
 * option fields (tag, status, …), the labels of the chosen options beside their ids, so a later step can
 * use "High" rather than `opt_high`. One read of the board's fields per board; when it fails (e.g. a key
 * without `customfields.read`), the task goes out as the service answered it.
 */
import type { CustomField, Task, ThreadworkClient } from '@threadwork/shared';

export type LabelledTask = Task & {
  custom_fields: Array<Task['custom_fields'][number] & { name?: string; labels?: string[] }>;
};

export async function withFieldLabels<T extends Task>(
  client: ThreadworkClient,
  tasks: T[],
  known?: Map<string, CustomField[]>,
): Promise<T[]> {
  const boards = known ?? new Map<string, CustomField[]>();
  const unlabelled = (task: T) => task.custom_fields.some((value) => !('name' in value));
  for (const task of tasks) {
    if (!unlabelled(task)) continue;
    const boardId = task.board_id;
    if (task.custom_fields.length === 0 || boardId === null || boards.has(boardId)) continue;
    try {
      const fields: CustomField[] = [];
      for await (const field of client.customFields.list(boardId, { limit: 200 })) fields.push(field);
      boards.set(boardId, fields);
    } catch {
      boards.set(boardId, []);
    }
  }
  return tasks.map((task) => {
    if (!unlabelled(task)) return task;
    const fields = boards.get(task.board_id ?? '') ?? [];
    return {
      ...task,
      // Labels added beside the service's own fields (its ids stay as they were).
      custom_fields: task.custom_fields.map((value) => {
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
      }),
    };
  });
}
