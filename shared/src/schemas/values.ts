/**
 * The fixed value lists the schemas are built from, in a module without zod: code that needs only the values
 * (a Zapier dropdown's choices, a hook's subscription target) loads no schema. The schema modules build their
 * enums from these and export them again, so `@threadwork/shared` and `/schemas` offer them as before.
 */

/** A task's colour. */
export const SHADES = [
  'none',
  'yellow',
  'cyan',
  'light_blue',
  'teal',
  'blue',
  'indigo',
  'yellow_green',
  'lime',
  'green',
  'amber',
  'red',
  'magenta',
  'purple',
  'orange',
  'deep_orange',
  'pink',
  'brown',
  'grey',
  'dark_grey',
  'black',
] as const;

/** How a reply picks its recipients. */
export const REPLY_MODES = ['reply', 'reply_all'] as const;

export const CUSTOM_FIELD_TYPES = [
  'text',
  'multiline_text',
  'number',
  'date',
  'checkbox',
  'url',
  'phone',
  'select',
  'status',
  'tag',
  'multiselect',
] as const;

/** Types whose values are option ids. */
export const OPTION_FIELD_TYPES: readonly (typeof CUSTOM_FIELD_TYPES)[number][] = [
  'select',
  'status',
  'tag',
  'multiselect',
];

export const V1_ACTIONS = [
  'createOnList',
  'createOnBoard',
  'itemCompleted',
  'itemArchived',
  'itemDeleted',
  'assignedTo',
  'movedToList',
] as const;

export const V1_OBJECTS = ['items', 'lists'] as const;

/** Which object each v1 action is subscribed on, and what its entityId names. */
export const V1_ACTION_TARGETS: Record<
  (typeof V1_ACTIONS)[number],
  { object: (typeof V1_OBJECTS)[number]; entity: 'list' | 'board' }
> = {
  movedToList: { object: 'lists', entity: 'list' },
  createOnList: { object: 'items', entity: 'list' },
  createOnBoard: { object: 'items', entity: 'board' },
  itemCompleted: { object: 'items', entity: 'board' },
  itemArchived: { object: 'items', entity: 'board' },
  itemDeleted: { object: 'items', entity: 'board' },
  assignedTo: { object: 'items', entity: 'board' },
};

/** Every v2 scope (docs/scopes-and-keys.md). */
export const SCOPES = [
  'boards.read',
  'boards.write',
  'lists.read',
  'lists.write',
  'tasks.read',
  'tasks.write',
  'customfields.read',
  'customfields.write',
  'email.metadata.read',
  'email.body.read',
  'email.modify',
  'drafts.write',
  'drafts.delete',
  'email.reply',
  'email.send',
  'crm.read',
  'crm.write',
  'ai.read',
  'ai.write',
  'webhooks.manage',
  'keys.manage',
] as const;

/** Scopes a key gets only when asked for by name: sending mail and deleting drafts. */
export const OPT_IN_SCOPES: readonly (typeof SCOPES)[number][] = ['email.send', 'drafts.delete'];
