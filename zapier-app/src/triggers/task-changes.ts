/**
 * What a `task.updated` changed, as a Zap builder reads it (docs/zapier-app.md, "Triggers"). The service
 * sends `data.previous_attributes`: each Task field that changed, with its value before (`custom_fields`
 * only the fields that changed). The trigger turns it into flat keys a Filter step can test:
 * `changed_fields`, what changed named as the app names it ("Color", "Assignee", "Linked Threads", a custom
 * field's own name), and `previous_*`, each value before, null (or empty) when that field did not change.
 */
import type { CustomField, PreviousAttributes, Task } from '@threadwork/shared';
import { type OutputField, task as taskResource } from '../creates/resources.ts';
import { labelValues, type TaskOutput } from '../creates/task-output.ts';

export interface TaskChanges {
  changed_fields: string[];
  previous_shade: Task['shade'] | null;
  previous_custom_fields: TaskOutput['custom_fields'];
  previous_assignee_name: string | null;
  previous_assignee_email: string | null;
  previous_thread_ids: string[] | null;
}

/** A Task field's name in `changed_fields`, where the output label is not what a user calls it. */
const FIELD_NAMES: Record<string, string> = {
  shade: 'Color',
  assignee: 'Assignee',
  thread_ids: 'Linked Threads',
  // Sent when a link gave the task its first thread, always beside `thread_ids`.
  first_thread: 'Linked Threads',
};

/** Any other field (one the service may add) by its output label, else its key. */
function fieldName(key: string): string {
  return FIELD_NAMES[key] ?? taskResource.outputFields.find((field) => field.key === key)?.label ?? key;
}

/**
 * The change keys of one event, in the order the service lists what changed; `fields` are the board's
 * custom fields (a field not among them, e.g. when they could not be read, is named by its id). An event
 * without `previous_attributes` (recorded before the service sent them) names no change.
 */
export function taskChanges(previous: PreviousAttributes | undefined, fields: CustomField[]): TaskChanges {
  const before = previous ?? {};
  const customFields = labelValues(before.custom_fields ?? [], fields);
  const names = Object.keys(before).flatMap((key) =>
    key === 'custom_fields' ? customFields.map((value) => value.name ?? value.field_id) : [fieldName(key)],
  );
  const assignee = before.assignee ?? null;
  return {
    changed_fields: [...new Set(names)],
    previous_shade: before.shade ?? null,
    previous_custom_fields: customFields,
    previous_assignee_name: assignee?.name ?? null,
    previous_assignee_email: assignee?.email ?? null,
    previous_thread_ids: before.thread_ids ?? null,
  };
}

/**
 * A live sample's change: the one that gave the task its colour and custom-field values, from none. A task
 * with neither has nothing a sample could show changing (undefined).
 */
export function samplePrevious(task: Task): PreviousAttributes | undefined {
  const previous: PreviousAttributes = {};
  if (task.shade !== 'none') previous.shade = 'none';
  if (task.custom_fields.length > 0) {
    previous.custom_fields = task.custom_fields.map((value) => ({ field_id: value.field_id, value: null }));
  }
  return Object.keys(previous).length === 0 ? undefined : previous;
}

export const changesSample: TaskChanges = {
  changed_fields: ['Color', 'Priority'],
  previous_shade: 'none',
  previous_custom_fields: [
    { field_id: 'cf_priority', value: ['opt_low'], name: 'Priority', labels: ['Low'] },
  ],
  previous_assignee_name: null,
  previous_assignee_email: null,
  previous_thread_ids: null,
};

/**
 * Zapier's output fields take no help text: the trigger's description says what Changed Fields holds, and
 * docs/zapier-app.md the rest.
 */
export const changesOutputFields: OutputField[] = [
  { key: 'changed_fields', label: 'Changed Fields' },
  { key: 'previous_shade', label: 'Previous Color' },
  { key: 'previous_custom_fields[]field_id', label: 'Previous Custom Field IDs' },
  { key: 'previous_custom_fields[]name', label: 'Previous Custom Field Names' },
  { key: 'previous_custom_fields[]value', label: 'Previous Custom Field Values' },
  { key: 'previous_custom_fields[]labels', label: 'Previous Custom Field Option Labels' },
  { key: 'previous_assignee_name', label: 'Previous Assignee Name' },
  { key: 'previous_assignee_email', label: 'Previous Assignee Email' },
  { key: 'previous_thread_ids', label: 'Previous Linked Thread IDs' },
];
