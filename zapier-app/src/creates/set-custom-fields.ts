import type { CustomField, CustomFieldValueInput, ThreadworkClient } from '@threadwork/shared';
import {
  NotFoundError,
  OPTION_FIELD_TYPES,
  RequestValidationError,
  ValidationError,
} from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { type DynamicFields, defineAction } from './define.ts';
import { boardField, type InputField, Inputs, invalid, taskField, teamField } from './fields.ts';
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
    // Read back in perform (bundle.meta.inputFields), so values are sent as their type without a lookup,
    // and errors name the field as the service does.
    meta: { field_type: field.type, label: field.name },
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
 * The chosen board's custom fields as inputs; AI-managed fields are read-only, so they are left out. When
 * none is left (no board chosen yet, a board without fields, or only AI-managed ones), one line of text in
 * their place says why, so the section is never silently empty.
 */
export function customFieldInputs(emptyMeans: string): DynamicFields {
  return withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const boardId = new Inputs(bundle.inputData as Record<string, unknown>).text('board_id');
    if (boardId === undefined) {
      return [why('Choose a Board above: its custom fields appear here, one input each.')];
    }
    const fields = await boardFields(await v2Client(z, bundle), boardId);
    const settable = fields.filter((field) => !field.ai);
    if (settable.length > 0) return settable.map((field) => inputFieldOf(field, emptyMeans));
    if (fields.length === 0) return [why('This board has no custom fields.')];
    const names = fields.map((field) => `"${field.name}"`).join(', ');
    return [
      why(
        `This board's custom fields (${names}) are managed by the AI: the service sets them itself, so no step can.`,
      ),
    ];
  });
}

/** A line of text among the inputs (Zapier's `copy` field), saying why there are no custom field inputs. */
function why(text: string): InputField {
  return { key: 'custom_fields_note', label: 'Custom Fields', type: 'copy', helpText: text };
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
  description:
    "Updates a task's custom field values (the chosen board's fields). With Set Task Color, this is what the service lets you update: a task's title, notes and due date cannot change after it is created.",
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
    const updated = await client.tasks
      .update(taskId, { custom_fields: values }, { idempotencyKey: idempotencyKey() })
      .catch((error: unknown) => {
        throw explainFieldError(error, values);
      });
    // The board's fields, when read above, also give the option labels of the answer.
    const known =
      read === undefined || updated.board_id === null ? undefined : new Map([[updated.board_id, read]]);
    return (await withFieldLabels(client, [updated], known))[0] ?? updated;
  },
});

/**
 * A refusal of custom field values by the service, on the input it concerns: a field the task's board does
 * not have (the Board chosen is not the task's), an option the field does not have, or a value it refuses
 * (`custom_fields[1].value`: the second value sent). Any other error is handed back as it is.
 */
export function explainFieldError(error: unknown, values: CustomFieldValueInput[]): unknown {
  const inputOf = (fieldId: string) => `${CUSTOM_FIELD_PREFIX}${fieldId}`;
  if (error instanceof NotFoundError) {
    const option = /option (\S+) of custom field (\S+) was not found/.exec(error.message);
    if (option?.[1] !== undefined && option[2] !== undefined) {
      return invalid(inputOf(option[2]), `\`${option[1]}\` is not one of its options`);
    }
    const field = /custom field (\S+) was not found/.exec(error.message)?.[1];
    if (field !== undefined && values.some((value) => value.field_id === field)) {
      return invalid(
        inputOf(field),
        "is a custom field of the Board chosen in this step, but the task is on another board: choose the task's own board in Board, so that its fields appear here",
      );
    }
  }
  if (error instanceof ValidationError && Array.isArray(error.details)) {
    const details = error.details.map((detail: { path?: unknown; message?: unknown }) => {
      const index = /^custom_fields\[(\d+)\]/.exec(String(detail.path ?? ''))?.[1];
      const value = index === undefined ? undefined : values[Number(index)];
      return value === undefined ? detail : { path: inputOf(value.field_id), message: detail.message };
    });
    return new RequestValidationError({ message: error.message, code: 'validation_error', details });
  }
  return error;
}

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
    if (field === undefined) {
      throw invalid(
        key,
        'is not a custom field of the chosen Board: choose the Board again, so that its own fields appear here',
      );
    }
    const value = fieldValue(input, key, field);
    if (value === undefined) continue;
    if (field.ai === true) throw invalid(field.name ?? key, 'is managed by the AI and cannot be set');
    values.push({ field_id: fieldId, value });
  }
  return { values, read };
}
