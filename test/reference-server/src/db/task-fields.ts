// A task's fields, each declared once: the columns of `tasks` that hold it (with what a new task that
// leaves it out stores), how those columns become the field's value in the v2 Task and back, and the
// name v1's Item shows it under. Everything else derives from this table: the row type of `tasks`
// (db/schema.ts), the columns a create inserts and a read selects (storage/tasks.ts), the fields of a
// Task (`taskFields.task`) and of a v1 Item (`taskFields.v1`), and the row a seed or a create writes
// (`columnsOf`). Adding a field is an entry here, beside the API's own declaration (the shared zod
// schema, its one source: `TASK_FIELDS` is checked against it, so the compiler names a field of Task
// that this table does not declare) and the migration that adds its column (docs/architecture.md).
import { Task, type V1Item } from '@threadwork/shared/schemas';
import type { z } from 'zod';

/** What a column holds: text, integers (booleans as 0/1), or null. */
type Stored = string | number | null;

/** A column a new task must be given a value for (it has no value for "left out"). */
const REQUIRED: unique symbol = Symbol('required');

/** What the fields of one row read besides their own columns: a card's type decides what it shows. */
interface CardFacts {
  content_type: string;
}

/**
 * One field of a task: its columns, each with what a new task that leaves the field out stores
 * (`REQUIRED` when there is no such value), how a row's columns read as the field's value, and how a
 * value is written back. `v1`: the name and the form v1's Item gives it (absent: v1 does not show it).
 */
export interface TaskField<Value, Columns extends Record<string, Stored>> {
  readonly columns: { readonly [C in keyof Columns]: Columns[C] | typeof REQUIRED };
  read(row: Columns & CardFacts): Value;
  /** Writes `value` into its columns of `row` (in place: a create writes every field into one row). */
  write(value: Value, row: Columns): void;
  readonly v1?: { readonly name: keyof V1Item; show(value: Value): unknown };
}

/**
 * A field held by one column. `empty`: what a new task that leaves it out stores (left out: it must be
 * given); `read`: how the stored value shows (left out: as it is); `v1`: v1's name and form for it.
 */
export function column<Value extends Stored, Name extends string = string>(
  name: Name,
  options: {
    empty?: Value;
    read?: (stored: Value) => Value;
    v1?: TaskField<Value, Record<Name, Value>>['v1'];
  } = {},
): TaskField<Value, Record<Name, Value>> {
  const { read } = options;
  return {
    columns: { [name]: 'empty' in options ? options.empty : REQUIRED } as TaskField<
      Value,
      Record<Name, Value>
    >['columns'],
    read: read === undefined ? (row) => row[name] : (row) => read(row[name]),
    write: (value, row) => {
      row[name] = value;
    },
    ...(options.v1 === undefined ? {} : { v1: options.v1 }),
  };
}

/** A yes/no field, stored as 0/1 (the same on SQLite and PostgreSQL). */
function flag<Name extends string>(name: Name, v1?: keyof V1Item): TaskField<boolean, Record<Name, number>> {
  return {
    columns: { [name]: 0 } as TaskField<boolean, Record<Name, number>>['columns'],
    read: (row) => Boolean(row[name]),
    write: (value, row) => {
      (row as Record<string, number>)[name] = value ? 1 : 0;
    },
    ...(v1 === undefined ? {} : { v1: { name: v1, show: (value: boolean) => value } }),
  };
}

type ValueOf<F> = F extends TaskField<infer Value, infer _Columns> ? Value : never;
type ColumnsOf<F> = F extends TaskField<infer _Value, infer Columns> ? Columns : never;
type UnionToIntersection<U> = (U extends unknown ? (item: U) => void : never) extends (item: infer I) => void
  ? I
  : never;
/** The columns of several fields (or parts) together. */
type Joined<U> = UnionToIntersection<U> extends infer I extends Record<string, Stored> ? I : never;

/**
 * An object field held by several columns (one per part); null when every part is null, if
 * `nullWhenEmpty`. Written null, every part's column is cleared.
 */
function parts<Parts extends Record<string, TaskField<Stored, Record<string, Stored>>>>(
  of: Parts,
  nullWhenEmpty: boolean,
  v1?: TaskField<{ [P in keyof Parts]: ValueOf<Parts[P]> } | null, never>['v1'],
): TaskField<{ [P in keyof Parts]: ValueOf<Parts[P]> } | null, Joined<ColumnsOf<Parts[keyof Parts]>>> {
  type Value = { [P in keyof Parts]: ValueOf<Parts[P]> };
  const entries = Object.entries(of);
  return {
    columns: Object.assign({}, ...entries.map(([, part]) => part.columns)),
    read: (row) => {
      const value: Record<string, Stored> = {};
      let empty = nullWhenEmpty;
      for (const [name, part] of entries) {
        const read = part.read(row);
        value[name] = read;
        if (read !== null) empty = false;
      }
      return empty ? null : (value as Value);
    },
    write: (value, row) => {
      for (const [name, part] of entries) part.write(value === null ? null : (value[name] as Stored), row);
    },
    ...(v1 === undefined ? {} : { v1 }),
  };
}

/** Shown on sale cards only (null on any other card), whatever the columns hold. */
function saleOnly<Value, Columns extends Record<string, Stored>>(
  field: TaskField<Value, Columns>,
): TaskField<Value | null, Columns> {
  return {
    columns: field.columns,
    read: (row) => (row.content_type === 'sale' ? field.read(row) : null),
    write: (value, row) => field.write(value as Value, row),
  };
}

/** An ISO timestamp as v1 shows it: in UTC. */
export const utc = (value: string) => new Date(value).toISOString();

/** The task's own fields, in their columns (see the top of this file). */
export const TASK_FIELDS = {
  content_type: column<string, 'content_type'>('content_type'),
  title: column<string, 'title'>('title', { v1: { name: 'title', show: (title) => title } }),
  notes: column<string | null, 'notes'>('notes', {
    empty: null,
    v1: { name: 'notes', show: (notes) => notes },
  }),
  completed: flag('completed', 'completed'),
  // A shade never written reads as `none`.
  shade: column<string, 'shade'>('shade', { empty: 'none', read: (shade) => shade || 'none' }),
  due_at: column<string | null, 'due_at'>('due_at', {
    empty: null,
    v1: { name: 'dueDate', show: (dueAt) => (dueAt === null ? null : utc(dueAt)) },
  }),
  created_at: column<string, 'created_at'>('created_at', {
    v1: { name: 'dateCreated', show: (createdAt) => (createdAt === null ? '' : utc(createdAt)) },
  }),
  contact_id: saleOnly(column<string | null, 'contact_id'>('contact_id', { empty: null })),
  deal: saleOnly(
    parts(
      {
        // PostgreSQL answers numeric columns as text.
        value: column<number | null, 'deal_value'>('deal_value', {
          empty: null,
          read: (value) => (value === null ? null : Number(value)),
        }),
        source: column<string | null, 'deal_source'>('deal_source', { empty: null }),
        close_date: column<string | null, 'deal_close_date'>('deal_close_date', { empty: null }),
        loss_reason: column<string | null, 'deal_loss_reason'>('deal_loss_reason', { empty: null }),
      },
      false,
    ),
  ),
  // A snapshot of the first linked thread: its subject, first message date and first sender.
  first_thread: parts(
    {
      title: column<string | null, 'first_thread_title'>('first_thread_title', { empty: null }),
      received_at: column<string | null, 'first_thread_received_at'>('first_thread_received_at', {
        empty: null,
      }),
      from: column<string | null, 'first_thread_from'>('first_thread_from', { empty: null }),
    },
    true,
    {
      name: 'firstThread',
      show: (thread) =>
        thread === null
          ? null
          : {
              title: thread.title,
              received: thread.received_at === null ? null : utc(thread.received_at),
              from: thread.from,
            },
    },
  ),
};

/**
 * The fields of Task that the task's own columns do not hold: its id and where it is (the list's and
 * the board's), and what other tables or rows hold (links, custom values, the assignee's name).
 */
export type PlacedTaskField =
  | 'id'
  | 'list_id'
  | 'list_name'
  | 'board_id'
  | 'board_name'
  | 'custom_fields'
  | 'thread_ids'
  | 'assignee';

type TaskShape = typeof Task.shape;
/** Every field of the shared Task schema but those placed around the row, as the table must declare it. */
export type DeclaredTaskFields = {
  [K in Exclude<keyof TaskShape, PlacedTaskField>]: TaskField<z.output<TaskShape[K]>, Record<string, Stored>>;
};
// The compiler names any field of Task that TASK_FIELDS does not declare, or declares with another type.
TASK_FIELDS satisfies DeclaredTaskFields;

/** A table of fields: TASK_FIELDS, or a larger one (a test's, say). */
type FieldTable = Record<string, TaskField<unknown, Record<string, Stored>>>;
/** The values of a table's fields. */
export type FieldValues<Table extends FieldTable> = { [K in keyof Table]: ValueOf<Table[K]> };
/** The columns that hold a table's fields. */
export type FieldColumns<Table extends FieldTable> = Joined<ColumnsOf<Table[keyof Table]>>;

/** What the rest of the server derives from a table of fields (see the top of this file). */
export interface DerivedTaskFields<Table extends FieldTable> {
  /** Every column that holds a field, in the table's order. */
  readonly columns: readonly (keyof FieldColumns<Table> & string)[];
  /**
   * A Task of a row: Task's keys in the shared schema's order, then any field of the table the schema
   * does not have; each a field read from the row, or else from `placed` (`PlacedTaskField`).
   */
  task(row: FieldColumns<Table>, placed: Record<string, unknown>): Record<string, unknown>;
  /** The columns of a new task: the fields given, written; every other field, empty (some must be given). */
  columnsOf(values: Partial<FieldValues<Table>>): FieldColumns<Table>;
  /** The columns a change of these fields writes, and only those. */
  changedColumnsOf(values: Partial<FieldValues<Table>>): Partial<FieldColumns<Table>>;
  /** A row's fields, as the v2 Task shows them. */
  read(row: FieldColumns<Table>): FieldValues<Table>;
  /** The fields v1's Item shows, by their v1 names, from a v2 Task. */
  v1(task: { [K in keyof Table]: unknown }): Partial<V1Item>;
}

export function deriveTaskFields<Table extends FieldTable>(table: Table): DerivedTaskFields<Table> {
  // Walked once per row read or written: each field with its columns' empty values, found once here.
  const fields = Object.entries(table).map(([name, field]) => ({
    name,
    field,
    empties: Object.entries(field.columns),
  }));
  const names = new Set(Object.keys(table));
  const schemaKeys = Object.keys(Task.shape);
  const taskKeys = [...schemaKeys, ...[...names].filter((name) => !schemaKeys.includes(name))].map((key) => ({
    key,
    field: names.has(key) ? table[key] : undefined,
  }));
  return {
    columns: fields.flatMap(({ empties }) =>
      empties.map(([column]) => column),
    ) as (keyof FieldColumns<Table> & string)[],
    task(row, placed) {
      const task: Record<string, unknown> = {};
      for (const { key, field } of taskKeys) task[key] = field ? field.read(row as never) : placed[key];
      return task;
    },
    columnsOf(values) {
      const row: Record<string, Stored> = {};
      for (const { name, field, empties } of fields) {
        const value = values[name];
        if (value !== undefined) {
          field.write(value, row);
          continue;
        }
        for (const [column, empty] of empties) {
          if (empty === REQUIRED) throw new Error(`a new task needs its ${name}`);
          row[column] = empty;
        }
      }
      return row as FieldColumns<Table>;
    },
    changedColumnsOf(values) {
      const row: Record<string, Stored> = {};
      for (const { name, field } of fields) {
        const value = values[name];
        if (value !== undefined) field.write(value, row);
      }
      return row as Partial<FieldColumns<Table>>;
    },
    read(row) {
      const values: Record<string, unknown> = {};
      for (const { name, field } of fields) values[name] = field.read(row as never);
      return values as FieldValues<Table>;
    },
    v1(task) {
      const item: Record<string, unknown> = {};
      for (const { name, field } of fields) {
        if (field.v1 !== undefined) item[field.v1.name] = field.v1.show(task[name]);
      }
      return item as Partial<V1Item>;
    },
  };
}

/** The server's task fields: everything derives from this. */
export const taskFields = deriveTaskFields(TASK_FIELDS);
export type TaskFieldName = keyof typeof TASK_FIELDS;
export type TaskFieldValues = FieldValues<typeof TASK_FIELDS>;
/** The columns of `tasks` that hold the fields (db/schema.ts adds the task's id, place and bookkeeping). */
export type TaskFieldColumns = FieldColumns<typeof TASK_FIELDS>;
