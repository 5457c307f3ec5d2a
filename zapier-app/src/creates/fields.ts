import { RequestValidationError, SHADES } from '@threadwork/shared/light';
import { bareAddress, isEmail, splitAddresses } from '../lib/addresses.ts';

/**
 * The input fields actions and searches share, and one reader for what Zapier hands back. Keys are the v2
 * field names; dropdowns cascade team → board → list through the `teams`, `boards` and `lists` triggers,
 * and id fields link to the search that finds them, so a user can add a search step instead.
 */

export interface InputField {
  key: string;
  label: string;
  helpText: string;
  required?: boolean;
  type?: 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'datetime' | 'copy';
  list?: boolean;
  dict?: boolean;
  dynamic?: string;
  search?: string;
  choices?: Array<{ value: string; label: string; sample: string }>;
  placeholder?: string;
  default?: string;
  altersDynamicFields?: boolean;
  /** Simple key-values Zapier hands back with the inputs (`bundle.meta.inputFields`). */
  meta?: Record<string, string | number | boolean>;
}

type Options = { required?: boolean; helpText?: string; label?: string };

/** A field that names one object: `defaults` say how, and each use may change its label, help or requiredness. */
const idField =
  (defaults: InputField & { required: boolean }) =>
  (options: Options = {}): InputField => ({
    ...defaults,
    label: options.label ?? defaults.label,
    required: options.required ?? defaults.required,
    helpText: options.helpText ?? defaults.helpText,
  });

export const teamField = idField({
  key: 'team_id',
  label: 'Team',
  required: false,
  dynamic: 'teams.id.name',
  helpText: 'The team whose boards to choose from. Pick one, or map a team ID (e.g. `team_acme`).',
});

const boardIdField = idField({
  key: 'board_id',
  label: 'Board',
  required: false,
  dynamic: 'boards.id.name',
  helpText:
    'The board whose lists to choose from (choose a team first). Pick one, or map a board ID (e.g. `brd_roadmap`).',
});

export const boardField = (options: Options & { altersDynamicFields?: boolean } = {}): InputField => ({
  ...boardIdField(options),
  ...(options.altersDynamicFields ? { altersDynamicFields: true } : {}),
});

export const listField = idField({
  key: 'list_id',
  label: 'List',
  required: true,
  dynamic: 'lists.id.name',
  helpText: 'The list (choose a team and board first). Pick one, or map a list ID (e.g. `lst_todo`).',
});

export const taskField = idField({
  key: 'task_id',
  label: 'Task',
  required: true,
  dynamic: 'tasks.id.title',
  search: 'find_task.id',
  helpText:
    'The task: pick one (choose its board first, or its list), map its ID from an earlier step (e.g. `tsk_01hq3v7c9e8f`), or add a Find Task search step.',
});

/**
 * A task picked from its board: Team and Board (both optional) narrow the Task dropdown, which lists the
 * chosen board's tasks. A mapped task ID needs neither.
 */
export function taskFields(options: Options = {}): InputField[] {
  return [
    teamField(),
    boardField({
      helpText:
        "The task's board, whose tasks the Task dropdown lists (choose a team first), e.g. `brd_roadmap`. Not needed when you map a task ID.",
    }),
    taskField(options),
  ];
}

/**
 * A member of the task's board, by email: the dropdown lists the members of the chosen board (or of the
 * chosen task's board), and a Find Board Member search step finds one by email.
 */
export const memberField = idField({
  key: 'assignee_email',
  label: 'Assignee',
  required: true,
  dynamic: 'members.email.display_name',
  search: 'find_member.email',
  helpText:
    "A member of the task's board: pick one, map an email (e.g. `bob@example.com`), a user ID or a full name (e.g. `Bob Stone`; a name two members share is refused), or add a Find Board Member search step.",
});

export const threadField = idField({
  key: 'thread_id',
  label: 'Email Thread',
  required: true,
  dynamic: 'threads.id.subject',
  search: 'find_thread.thread_id',
  helpText:
    'The mailbox thread: pick a recent one, or map its hex ID (e.g. `18c2f0a1b2c3d4e5`), or add a Find Email Thread search step.',
});

/**
 * "Only Once Per", added to every action by `defineAction` (creates/define.ts). Empty (the default), every
 * run of the step acts; set, runs with the same value act once within 24 hours (lib/idempotency.ts).
 */
export const dedupeKeyField: InputField = {
  key: 'dedupe_key',
  label: 'Only Once Per',
  required: false,
  helpText:
    'Leave empty and the step acts every time it runs. To act only once per trigger item even when Zapier ' +
    'replays the Zap run, map something unique to that item here, e.g. the trigger’s `Event ID` or `Message ID`: ' +
    'runs with the same value within 24 hours act once and repeat the first result. If a Zap has two steps of ' +
    'this action, give each a different value (e.g. `{{Event ID}}-a`).',
};

/** A task's notes, free text; `example` shows a value in the help text. */
export const notesField = (example: string): InputField => ({
  key: 'notes',
  label: 'Notes',
  type: 'text',
  required: false,
  helpText: `Free text shown on the task, e.g. \`${example}\``,
});

/** When a task is due; `example` shows a value Zapier can read. */
export const dueAtField = (example: string): InputField => ({
  key: 'due_at',
  label: 'Due Date',
  type: 'datetime',
  required: false,
  helpText: `When the task is due, e.g. \`2026-03-01\`, \`2026-01-09 17:00\` or \`${example}\`.`,
});

const POSITIONS = ['top', 'bottom'] as const;

const POSITION_CHOICES = POSITIONS.map((position) => ({
  value: position,
  label: `${titleCase(position)} of the List`,
  sample: position,
}));

/** Where a task lands: `position` (top by default), or directly below `after_task_id`, which wins. */
export const placementFields: InputField[] = [
  {
    key: 'position',
    label: 'Position',
    required: false,
    choices: POSITION_CHOICES,
    helpText: 'Where the task lands in the list: the top (the default) or the bottom, e.g. `bottom`.',
  },
  {
    key: 'after_task_id',
    label: 'Place Below Task',
    required: false,
    dynamic: 'tasks.id.title',
    search: 'find_task.id',
    helpText:
      'Place the task directly below this task of the list: pick one or map its ID (e.g. `tsk_01hq3v7c9e8a`); wins over Position.',
  },
];

/** Reads what `placementFields` asked for, as the v2 create, move and reorder bodies take it. */
export function placement(input: Inputs): { position?: (typeof POSITIONS)[number]; after_task_id?: string } {
  return { position: input.choice('position', POSITIONS), after_task_id: input.text('after_task_id') };
}

function titleCase(value: string): string {
  return value
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export const SHADE_CHOICES = SHADES.map((shade) => ({
  value: shade,
  label: shade === 'none' ? 'None (Clear the Color)' : titleCase(shade),
  sample: shade,
}));

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off']);

/** A validation error about one input (by its key; the message shows the input's label). */
export function invalid(key: string, message: string): RequestValidationError {
  return new RequestValidationError({
    message: `${key}: ${message}`,
    code: 'validation_error',
    details: [{ path: key, message }],
  });
}

/**
 * Reads `bundle.inputData`. Zapier leaves an unmapped field out or empty, and a mapped value may arrive as
 * text whatever the field's type, so every reader accepts both; a value that cannot be read is a
 * validation error naming the field (it becomes a Zapier error with that message).
 */
export class Inputs {
  readonly #data: Record<string, unknown>;

  constructor(data: Record<string, unknown> | undefined) {
    this.#data = data ?? {};
  }

  /** A trimmed string; undefined when absent or blank. */
  text(key: string): string | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw invalid(key, 'must be text');
  }

  /** Free text kept as it is (bodies, notes): only an absent or blank value is undefined. */
  body(key: string): string | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw invalid(key, 'must be text');
  }

  /**
   * A date and time as the service takes it (UTC, e.g. `2026-03-01T00:00:00.000Z`): Zapier hands back what
   * it understood of "next Friday 5pm"; a mapped `2026-03-01` or any date JavaScript reads is accepted too.
   */
  datetime(key: string): string | undefined {
    const value = this.text(key);
    if (value === undefined) return undefined;
    const time = Date.parse(value);
    if (Number.isNaN(time)) throw invalid(key, "use a date like 2026-03-01 or 'next Friday 5pm'");
    // A full date-time with its zone goes as it was given; anything else as the UTC time it names.
    return /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)
      ? value
      : new Date(time).toISOString();
  }

  required(key: string): string {
    const value = this.text(key);
    if (value === undefined) throw invalid(key, 'is required');
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'boolean') return value;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    throw invalid(key, `must be yes or no, not "${String(value)}"`);
  }

  /** A list field: an array, or (mapped from an earlier step) one comma-separated line. */
  list(key: string): string[] | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null || value === '') return undefined;
    const items = Array.isArray(value) ? value : String(value).split(',');
    const strings = items
      .filter((item) => item !== undefined && item !== null)
      .map((item) => String(item).trim())
      .filter((item) => item !== '');
    return strings.length === 0 ? undefined : strings;
  }

  /**
   * Email addresses: a list field whose items may each hold several, as triggers and mail apps write them
   * (`Bob Stone <bob@stone.test>, "Stone, Carol" <carol@stone.test>; dan@stone.test`): each becomes its
   * bare address, which is what the service takes. Anything that is no address is refused by the label.
   */
  addresses(key: string): string[] | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null || value === '') return undefined;
    const items = (Array.isArray(value) ? value : [value]).flatMap((item) =>
      item === undefined || item === null ? [] : splitAddresses(String(item)),
    );
    const addresses = items.map((item) => {
      const address = bareAddress(item);
      if (!isEmail(address)) {
        throw invalid(
          key,
          `"${item}" is not an email address: use bob@example.com or Bob Stone <bob@example.com>`,
        );
      }
      return address;
    });
    return addresses.length === 0 ? undefined : addresses;
  }

  /** A dict field (key → value), as the `[{ type, value }]` pairs the v2 CRM objects hold. */
  pairs(key: string): Array<{ type: string; value: string }> | undefined {
    const value = this.#data[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalid(key, 'must be pairs of type and value');
    const pairs = Object.entries(value as Record<string, unknown>)
      .map(([type, item]) => ({ type: type.trim(), value: item === null ? '' : String(item).trim() }))
      .filter((pair) => pair.type !== '' && pair.value !== '');
    return pairs.length === 0 ? undefined : pairs;
  }

  /** One of `choices`; undefined when absent. */
  choice<const T extends string>(key: string, choices: readonly T[]): T | undefined {
    const value = this.text(key);
    if (value === undefined) return undefined;
    const match = choices.find((choice) => choice === value.toLowerCase());
    if (match === undefined) throw invalid(key, `must be one of ${choices.join(', ')}, not "${value}"`);
    return match;
  }

  /** One of `choices`, required. */
  requiredChoice<const T extends string>(key: string, choices: readonly T[]): T {
    const value = this.choice(key, choices);
    if (value === undefined) throw invalid(key, 'is required');
    return value;
  }

  /** Every key with its raw value, for the fields an action builds dynamically. */
  entries(): Array<[string, unknown]> {
    return Object.entries(this.#data);
  }
}

/** Leaves out undefined values, so a request body (and its idempotency key) holds only what the user gave. */
export function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}
