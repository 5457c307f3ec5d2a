import type { CustomField, CustomFieldValueInput, ThreadworkClient } from '@threadwork/shared';
import { OPTION_FIELD_TYPES, RequestValidationError } from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { type DynamicFields, defineAction } from './define.ts';
import { boardField, type InputField, Inputs, taskField, teamField } from './fields.ts';
import { task } from './resources.ts';
import { withFieldLabels } from './task-output.ts';

/** Each custom field of the chosen board is one input, keyed `custom_field__<field_id>`. */
export const CUSTOM_FIELD_PREFIX = 'custom_field__';

/** Types holding several options; the other option types hold at most one. */
const MULTI_OPTION_TYPES = new Set(['tag', 'multiselect']);
const isOptionType = (type: string) => (OPTION_FIELD_TYPES as readonly string[]).includes(type);

async function boardFields(client: ThreadworkClient, boardId: string): Promise<CustomField[]> {
  const fields: CustomField[] = [];
  for await (const field of client.customFields.list(boardId, { limit: 200 })) fields.push(field);
  return fields;
}

/** `emptyMeans` ends each help text: what an input left empty does (keep the value, or leave it unset). */
function inputFieldOf(field: CustomField, emptyMeans: string): InputField {
  const base = {
    key: `${CUSTOM_FIELD_PREFIX}${field.id}`,
    label: field.name,
    required: false,
    // Read back in perform (bundle.meta.inputFields), so values are sent as their type without a lookup.
    meta: { field_type: field.type },
  };
  const keep = emptyMeans;
  if (isOptionType(field.type)) {
    const options = field.options ?? [];
    const many = MULTI_OPTION_TYPES.has(field.type);
    return {
      ...base,
      list: many,
      choices: options.map((option) => ({ value: option.id, label: option.label, sample: option.id })),
      helpText: `${many ? 'One or more options' : 'One option'}, e.g. \`${options[0]?.label ?? 'an option'}\` (an option's label or ID). ${keep}`,
    };
  }
  switch (field.type) {
    case 'number':
      return { ...base, type: 'number', helpText: `A number, e.g. \`3\`. ${keep}` };
    case 'checkbox':
      return { ...base, type: 'boolean', helpText: `Yes or no, e.g. \`yes\`. ${keep}` };
    case 'date':
      return { ...base, type: 'datetime', helpText: `A date, e.g. \`2026-01-09\`. ${keep}` };
    case 'multiline_text':
      return { ...base, type: 'text', helpText: `Text, e.g. \`Call back after lunch\`. ${keep}` };
    default:
      return { ...base, helpText: `Text, e.g. \`Roof repair\`. ${keep}` };
  }
}

/**
 * The chosen board's custom fields as inputs (none until a board is chosen); AI-managed fields are
 * read-only, so they are left out.
 */
export function customFieldInputs(emptyMeans: string): DynamicFields {
  return withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const boardId = new Inputs(bundle.inputData as Record<string, unknown>).text('board_id');
    if (boardId === undefined) return [];
    const fields = await boardFields(await v2Client(z, bundle), boardId);
    return fields.filter((field) => !field.ai).map((field) => inputFieldOf(field, emptyMeans));
  });
}

function invalid(key: string, message: string): RequestValidationError {
  return new RequestValidationError({
    message: `${key}: ${message}`,
    code: 'validation_error',
    details: [{ path: key, message }],
  });
}

/** What perform needs of a field: its type, and (when the board was read) its name, options and AI flag. */
interface FieldShape {
  type: string;
  name?: string;
  ai?: boolean;
  options?: CustomField['options'];
}

/** One input's value as the field's type takes it; undefined when the input is empty. */
function fieldValue(
  input: Inputs,
  key: string,
  field: FieldShape,
): CustomFieldValueInput['value'] | undefined {
  const name = field.name ?? key;
  if (isOptionType(field.type)) {
    const picked = input.list(key);
    if (picked === undefined || field.options === undefined) return picked;
    const options = field.options ?? [];
    // A mapped value may be an option's label rather than its id.
    return picked.map((value) => {
      const option =
        options.find((candidate) => candidate.id === value) ??
        options.find((candidate) => candidate.label.toLowerCase() === value.toLowerCase());
      if (option === undefined) {
        const labels = options.map((candidate) => candidate.label).join(', ');
        throw invalid(name, `"${value}" is not one of its options (${labels})`);
      }
      return option.id;
    });
  }
  switch (field.type) {
    case 'number': {
      const text = input.text(key);
      if (text === undefined) return undefined;
      const number = Number(text);
      if (!Number.isFinite(number)) throw invalid(name, `"${text}" is not a number`);
      return number;
    }
    case 'checkbox':
      return input.boolean(key);
    case 'multiline_text':
      return input.body(key);
    default:
      return input.text(key);
  }
}

/** The type each custom-field input was offered with, as Zapier hands it back in `bundle.meta.inputFields`. */
function offeredTypes(bundle: Bundle, keys: string[]): Map<string, FieldShape> | undefined {
  const meta = (bundle.meta as { inputFields?: Record<string, Record<string, unknown>> } | undefined)
    ?.inputFields;
  const shapes = new Map<string, FieldShape>();
  for (const key of keys) {
    const type = meta?.[key]?.['field_type'];
    if (typeof type !== 'string') return undefined;
    shapes.set(key.slice(CUSTOM_FIELD_PREFIX.length), { type });
  }
  return shapes;
}

export default defineAction({
  key: 'set_custom_fields',
  noun: 'Task',
  label: 'Set Task Custom Fields',
  description: "Updates a task's custom field values; the fields are those of the chosen board.",
  inputFields: [
    teamField(),
    boardField({
      required: true,
      altersDynamicFields: true,
      helpText:
        "The task's board, whose custom fields appear below (choose a team first), or map a board ID (e.g. `brd_roadmap`).",
    }),
    taskField(),
    customFieldInputs('Leave empty to keep the current value.'),
  ],
  resource: task,
  // Each value is sent as its field's type (option ids, number, yes/no). The types come with the inputs
  // (field meta); a step without them (e.g. mapped keys) reads the board's fields first, which also refuses
  // a field that is AI-managed or not on the board by its name before anything is written.
  perform: async ({ bundle, input, v2, idempotencyKey }) => {
    const taskId = input.required('task_id');
    const client = v2();
    const { values, read } = await customFieldValues(bundle, input, client, () => input.required('board_id'));
    if (values.length === 0) {
      throw invalid('custom_fields', 'fill in at least one custom field to change');
    }
    const updated = await client.tasks.update(
      taskId,
      { custom_fields: values },
      { idempotencyKey: idempotencyKey() },
    );
    // The board's fields, when read above, also give the option labels of the answer.
    const known =
      read === undefined || updated.board_id === null ? undefined : new Map([[updated.board_id, read]]);
    return (await withFieldLabels(client, [updated], known))[0] ?? updated;
  },
});

/**
 * The custom-field values the step's inputs give, each as its field's type; empty inputs are left out. The
 * types come with the inputs (field meta); a step without them reads the board's fields (`boardId` says
 * which board, and may refuse when there is none), and hands them back as `read` (they also give the option
 * labels of the answer).
 */
export async function customFieldValues(
  bundle: Bundle,
  input: Inputs,
  client: ThreadworkClient,
  boardId: () => string,
): Promise<{ values: CustomFieldValueInput[]; read: CustomField[] | undefined }> {
  const keys = input
    .entries()
    .map(([key]) => key)
    .filter((key) => key.startsWith(CUSTOM_FIELD_PREFIX));
  if (keys.length === 0) return { values: [], read: undefined };
  const offered = offeredTypes(bundle, keys);
  const read = offered === undefined ? await boardFields(client, boardId()) : undefined;
  const fields = offered ?? new Map<string, FieldShape>((read ?? []).map((field) => [field.id, field]));
  const values: CustomFieldValueInput[] = [];
  for (const key of keys) {
    const fieldId = key.slice(CUSTOM_FIELD_PREFIX.length);
    const field = fields.get(fieldId);
    if (field === undefined) throw invalid(key, `the board has no custom field ${fieldId}`);
    const value = fieldValue(input, key, field);
    if (value === undefined) continue;
    if (field.ai === true) throw invalid(field.name ?? key, 'is managed by the AI and cannot be set');
    values.push({ field_id: fieldId, value });
  }
  return { values, read };
}
