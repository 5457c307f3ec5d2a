// Custom fields of a board, their options, and the rules a task's value must follow.
import {
  CARD_DISPLAY_FIELD_TYPES,
  type CreateCustomFieldRequest,
  type CustomField,
  type CustomFieldType,
  type CustomFieldValue,
  type CustomFieldValueInput,
  OPTION_FIELD_TYPES,
  type UpdateCustomFieldRequest,
} from '@threadwork/shared/schemas';
import { z } from 'zod';
import type { Executor } from '../db/executor.ts';
import type { Locking } from '../db/transaction.ts';
import {
  boardFieldRows,
  clearFieldValues,
  type FieldRow,
  fieldValues,
  findField,
  insertField,
  nextFieldPosition,
  pageBoardFields,
  selectOptions,
  updateFieldRow,
  upsertValues,
  writeOptions,
} from '../storage/custom-fields.ts';
import { requireBoard } from './access.ts';
import { invalidField, notFound, ServiceError } from './errors.ts';
import { noteChange } from './events/feed.ts';
import { newId } from './ids.ts';
import type { Page, PageRequest } from './pagination.ts';
import { type FieldValueChanges, recordFieldValueChanges } from './tasks/record.ts';

/** Option types whose value holds at most one option id. */
const SINGLE_OPTION_TYPES: ReadonlySet<string> = new Set(['select', 'status']);
const isOptionType = (type: string) => (OPTION_FIELD_TYPES as readonly string[]).includes(type);
const isCardDisplayType = (type: string) => (CARD_DISPLAY_FIELD_TYPES as readonly string[]).includes(type);

export interface FieldRecord {
  id: string;
  board_id: string;
  name: string;
  type: string;
  ai: boolean;
  display_on_card: boolean;
  /** Option ids and labels in order; null for types without options. */
  options: { id: string; label: string }[] | null;
}

export function presentCustomField(field: FieldRecord): CustomField {
  return {
    id: field.id,
    name: field.name,
    type: field.type,
    ai: field.ai,
    display_on_card: field.display_on_card,
    options: field.options,
  };
}

/** Field rows with their options: one query for the options of all of them. */
async function withOptions(db: Executor, rows: readonly FieldRow[]): Promise<FieldRecord[]> {
  const optionFields = rows.filter((row) => isOptionType(row.type)).map((row) => row.id);
  const options = optionFields.length === 0 ? [] : await selectOptions(db, optionFields);
  const byField = new Map<string, { id: string; label: string }[]>();
  for (const option of options) {
    const list = byField.get(option.field_id) ?? [];
    list.push({ id: option.id, label: option.label });
    byField.set(option.field_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    board_id: row.board_id,
    name: row.name,
    type: row.type,
    ai: Boolean(row.ai),
    display_on_card: Boolean(row.display_on_card),
    options: isOptionType(row.type) ? (byField.get(row.id) ?? []) : null,
  }));
}

/** The custom fields of a board the user may see (gated), in board order. */
export async function listBoardFields(
  db: Executor,
  userId: string,
  boardId: string,
  page: PageRequest,
): Promise<Page<CustomField>> {
  const board = await requireBoard(db, userId, boardId);
  const result = await pageBoardFields(db, board.id, page);
  const fields = await withOptions(db, result.items);
  return { items: fields.map(presentCustomField), pagination: result.pagination };
}

/** Every field of a board with its options, by id in board order (no access check: the caller has done it). */
export async function boardFields(db: Executor, boardId: string): Promise<Map<string, FieldRecord>> {
  return (await boardFieldsOfTask(db, boardId)).fields;
}

/**
 * Every field of a board (as `boardFields`) and, with `taskId`, that task's stored values by field id
 * (JSON text), read with the fields in the same query: a PATCH compares what it sets with what the task
 * holds at no extra cost.
 */
export async function boardFieldsOfTask(
  db: Executor,
  boardId: string,
  taskId?: string,
): Promise<{ fields: Map<string, FieldRecord>; values: Map<string, string> }> {
  const rows = await boardFieldRows(db, boardId, taskId);
  const fields = await withOptions(db, rows);
  const values = new Map<string, string>();
  for (const row of rows) if (row.value != null) values.set(row.id, row.value);
  return { fields: new Map(fields.map((field) => [field.id, field])), values };
}

/**
 * A field on a board the user may see; 404 otherwise (the board's id does not leak). Locked until the
 * transaction ends (PostgreSQL; FOR NO KEY UPDATE, see storage/locks.ts): a change of the field reads it
 * as it stands.
 */
async function requireField(db: Executor, userId: string, fieldId: string): Promise<FieldRecord> {
  const row = await findField(db, fieldId, 'change');
  if (!row) throw notFound('custom field', fieldId);
  try {
    await requireBoard(db, userId, row.board_id);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'not_found') throw notFound('custom field', fieldId);
    throw error;
  }
  const [field] = await withOptions(db, [row]);
  return field!;
}

/**
 * A new field at the end of the board (its position read under the board's lock); options get fresh
 * `opt_` ids in the order sent.
 */
export async function createCustomField(
  db: Executor,
  userId: string,
  boardId: string,
  input: CreateCustomFieldRequest,
): Promise<CustomField> {
  const board = await requireBoard(db, userId, boardId, 'change');
  const position = await nextFieldPosition(db, board.id);
  const field: FieldRecord = {
    id: newId('cf'),
    board_id: board.id,
    name: input.name,
    type: input.type,
    ai: false,
    display_on_card: input.display_on_card ?? false,
    options: isOptionType(input.type)
      ? (input.options ?? []).map((option) => ({ id: newId('opt'), label: option.label }))
      : null,
  };
  await insertField(
    db,
    {
      id: field.id,
      board_id: field.board_id,
      name: field.name,
      type: field.type,
      ai: 0,
      display_on_card: field.display_on_card ? 1 : 0,
      position,
    },
    field.options ?? [],
  );
  // The board's pages show its fields (on cards, on task pages).
  noteChange(db, { topic: 'board', board_id: board.id });
  return presentCustomField(field);
}

/**
 * How a change of a field keeps out of other writers' way on PostgreSQL (see `Locking`). A change of
 * its options runs alone: it rewrites the values of every task holding a removed option (and records
 * task.updated for each), and a task update checks the values it sets against the options without
 * locking the field. Any other change (name, display_on_card) holds the field's row.
 */
export function fieldUpdateLocking(patch: UpdateCustomFieldRequest): Locking {
  return patch.options === undefined ? 'rows' : 'everything';
}

/**
 * Renames a field, replaces its options, or changes `display_on_card`. Options replace the set: an
 * item with an id keeps (and relabels) that option, one without adds an option, and an option left
 * out is removed, from the field and from every task value that held it; each such task records
 * task.updated, as a PATCH of its value would. AI fields are read-only.
 */
export async function updateCustomField(
  db: Executor,
  userId: string,
  fieldId: string,
  patch: UpdateCustomFieldRequest,
  now: Date,
): Promise<CustomField> {
  const field = await requireField(db, userId, fieldId);
  if (field.ai) {
    throw new ServiceError(
      'validation_error',
      `custom field ${field.id} is managed by the AI and is read-only`,
      [{ path: '', message: 'the field is managed by the AI and is read-only' }],
    );
  }
  if (patch.display_on_card !== undefined && !isCardDisplayType(field.type)) {
    throw invalidField('display_on_card', `only valid for status and tag fields, not ${field.type}`);
  }
  if (patch.options !== undefined && !isOptionType(field.type)) {
    throw invalidField(
      'options',
      `only valid for ${OPTION_FIELD_TYPES.join(', ')} fields, not ${field.type}`,
    );
  }

  let options = field.options;
  let changedValues: FieldValueChanges = new Map();
  if (patch.options !== undefined) {
    const current = new Set((field.options ?? []).map((option) => option.id));
    const kept = new Set<string>();
    options = patch.options.map((option, index) => {
      if (option.id === undefined) return { id: newId('opt'), label: option.label };
      if (!current.has(option.id)) throw unknownOption(field, option.id);
      if (kept.has(option.id))
        throw invalidField(`options[${index}].id`, `option ${option.id} is listed twice`);
      kept.add(option.id);
      return { id: option.id, label: option.label };
    });
    const removed = [...current].filter((id) => !kept.has(id));
    changedValues = await replaceOptions(db, field.id, options, removed);
  }

  const changes: { name?: string; display_on_card?: number } = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.display_on_card !== undefined) changes.display_on_card = patch.display_on_card ? 1 : 0;
  if (Object.keys(changes).length > 0) {
    await updateFieldRow(db, field.id, changes);
  }
  const updated = presentCustomField({
    ...field,
    name: patch.name ?? field.name,
    display_on_card: patch.display_on_card ?? field.display_on_card,
    options,
  });
  await recordFieldValueChanges(db, changedValues, now);
  noteChange(db, { topic: 'board', board_id: field.board_id });
  return updated;
}

/** Answers the tasks whose value lost a removed option, each with its value before. */
async function replaceOptions(
  db: Executor,
  fieldId: string,
  options: readonly { id: string; label: string }[],
  removed: readonly string[],
): Promise<FieldValueChanges> {
  await writeOptions(db, fieldId, options, removed);
  const changed = new Map<string, CustomFieldValue[]>();
  if (removed.length === 0) return changed;

  // Values holding a removed option lose it; a value left empty is cleared.
  const gone = new Set(removed);
  const values = await fieldValues(db, fieldId);
  const cleared: string[] = [];
  const rewritten: { task_id: string; field_id: string; value: string }[] = [];
  for (const row of values) {
    const value: unknown = JSON.parse(row.value);
    if (!Array.isArray(value) || !value.some((id) => gone.has(id))) continue;
    changed.set(row.task_id, [{ field_id: fieldId, value }]);
    const rest = value.filter((id) => !gone.has(id));
    if (rest.length === 0) cleared.push(row.task_id);
    else rewritten.push({ task_id: row.task_id, field_id: fieldId, value: JSON.stringify(rest) });
  }
  await clearFieldValues(db, fieldId, cleared);
  await upsertValues(db, rewritten);
  return changed;
}

export interface ValueChanges {
  /** Values to store, as JSON text. */
  set: { field_id: string; value: string }[];
  /** Fields whose value is cleared. */
  cleared: string[];
  /**
   * Each field that changes with its value before (null: it had none), in board order: what
   * `previous_attributes.custom_fields` of task.updated lists (docs/webhooks.md).
   */
  previous: CustomFieldValue[];
}

const IsoDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Why a value does not fit its field's type; null when it fits. */
function valueProblem(field: FieldRecord, value: CustomFieldValueInput['value']): string | null {
  const type = field.type as CustomFieldType;
  if (isOptionType(type)) {
    if (!Array.isArray(value)) return 'must be an array of option ids';
    if (SINGLE_OPTION_TYPES.has(type) && value.length > 1) return `a ${type} field holds at most one option`;
    return null;
  }
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && IsoDate.safeParse(value).success
        ? null
        : 'must be an ISO 8601 date or date-time';
    default:
      return typeof value === 'string' ? null : 'must be a string';
  }
}

/** 404 for an option id the field does not have (ids in a body answer as ids in a path do). */
function unknownOption(field: FieldRecord, optionId: string): ServiceError {
  return new ServiceError('not_found', `option ${optionId} of custom field ${field.id} was not found`);
}

/**
 * 404 naming the first id the values name that does not exist: a field that is not on the task's board,
 * or an option its field does not have (docs/ids-and-visibility.md, "Not found").
 */
function assertIdsKnown(
  fields: ReadonlyMap<string, FieldRecord>,
  values: readonly CustomFieldValueInput[],
): void {
  for (const entry of values) {
    const field = fields.get(entry.field_id);
    if (!field) throw notFound('custom field', entry.field_id);
    if (!isOptionType(field.type as CustomFieldType) || !Array.isArray(entry.value)) continue;
    const known = new Set((field.options ?? []).map((option) => option.id));
    const unknown = entry.value.find((id) => typeof id === 'string' && !known.has(id));
    if (unknown !== undefined) throw unknownOption(field, unknown as string);
  }
}

/**
 * Whether a value as stored (JSON text) is the value about to be stored: the same JSON, or for an option
 * field the same options in any order (its value is a set; docs/webhooks.md, "What counts as a change").
 */
function sameValue(field: FieldRecord, stored: string, next: string): boolean {
  if (stored === next) return true;
  if (!isOptionType(field.type)) return JSON.stringify(JSON.parse(stored)) === next;
  const before: unknown = JSON.parse(stored);
  const after = JSON.parse(next) as string[];
  if (!Array.isArray(before)) return false;
  const held = new Set(before);
  return held.size === after.length && after.every((id) => held.has(id));
}

/**
 * Checks the values a PATCH sends against the fields of the task's board and says what to write:
 * only what differs from `current` (the task's stored values, JSON text by field id), so that sending
 * a value the task already holds, or clearing an empty field, writes nothing. Every problem is reported
 * at once, each with its path (`custom_fields[1].value`).
 */
export function checkFieldValues(
  fields: ReadonlyMap<string, FieldRecord>,
  values: readonly CustomFieldValueInput[],
  current: ReadonlyMap<string, string>,
): ValueChanges {
  assertIdsKnown(fields, values);
  const problems: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  const changes: ValueChanges = { set: [], cleared: [], previous: [] };
  values.forEach((entry, index) => {
    const path = `custom_fields[${index}]`;
    const field = fields.get(entry.field_id) as FieldRecord;
    if (seen.has(field.id)) {
      problems.push({ path: `${path}.field_id`, message: `field ${field.id} is sent twice` });
      return;
    }
    seen.add(field.id);
    if (field.ai) {
      problems.push({
        path: `${path}.field_id`,
        message: `field ${field.id} is managed by the AI and is read-only`,
      });
      return;
    }
    const value = entry.value;
    const held = current.get(field.id);
    if (value === null || (Array.isArray(value) && value.length === 0)) {
      if (held !== undefined) changes.cleared.push(field.id);
      return;
    }
    const problem = valueProblem(field, value);
    if (problem) {
      problems.push({ path: `${path}.value`, message: problem });
      return;
    }
    const stored = JSON.stringify(Array.isArray(value) ? [...new Set(value)] : value);
    if (held === undefined || !sameValue(field, held, stored)) {
      changes.set.push({ field_id: field.id, value: stored });
    }
  });
  if (problems.length > 0) {
    const summary = problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
    throw new ServiceError('validation_error', `invalid custom_fields: ${summary}`, problems);
  }
  const changed = new Set([...changes.cleared, ...changes.set.map((change) => change.field_id)]);
  for (const fieldId of fields.keys()) {
    if (!changed.has(fieldId)) continue;
    const held = current.get(fieldId);
    changes.previous.push({ field_id: fieldId, value: held === undefined ? null : JSON.parse(held) });
  }
  return changes;
}
