/**
 * The one message protocol between the background service worker (the only holder of credentials and the
 * only caller of the service) and the content script and pages. Requests are validated with these schemas,
 * built from the shared ones, before anything is sent to the service.
 *
 * This module imports zod: only the background and the options page load it. The content script imports
 * its types alone (`import type`), which keeps zod out of the mailbox bundle.
 */
import {
  ApiKey,
  Board,
  BoardMember,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateTaskRequest,
  CustomField,
  CustomFieldValueInput,
  HexId,
  List,
  Me,
  Task,
  Team,
} from '@threadwork/shared/schemas';
import { z } from 'zod';
import { LINKED_STATES } from './protocol-values.ts';
import { SERVICE_URL_HELP, serviceOrigin } from './service-url.ts';

export { LINKED_STATES, PERSONAL, TASK_CREATED } from './protocol-values.ts';

// No `new Function` anywhere the protocol is checked (extension pages and workers forbid eval): zod
// validates without compiling.
z.config({ jitless: true });

const Id = z.string().min(1);

/**
 * What the settings form edits. An empty `apiSecret` on save keeps the stored one. Each message is what the
 * form shows under its field, as it is.
 */
export const SettingsInput = z.strictObject({
  origin: z.string().refine((value) => serviceOrigin(value) !== null, { message: SERVICE_URL_HELP }),
  email: z.string().trim().min(1, { message: 'Enter the email you sign in to the service with.' }),
  apiKey: z.string().trim().min(1, { message: 'Enter the API key of a key + secret.' }),
  apiSecret: z.string(),
  keyName: z.string().trim().min(1, { message: 'Enter the name the key has in the service.' }),
});
export type SettingsInput = z.infer<typeof SettingsInput>;

/** The settings as pages see them: never the secret itself. */
export const SettingsView = z.object({
  origin: z.string(),
  email: z.string(),
  apiKey: z.string(),
  keyName: z.string(),
  hasSecret: z.boolean(),
  configured: z.boolean(),
  /** The key Threadwork signed in with was revoked from the API tab: its secret is gone until another is entered. */
  signedOut: z.boolean(),
});
export type SettingsView = z.infer<typeof SettingsView>;

/** The last team (or PERSONAL), board and list of a successful create. */
export const Choice = z.object({ team_id: Id, board_id: Id, list_id: Id });
export type Choice = z.infer<typeof Choice>;

export const LinkedTaskView = z.object({
  id: z.string(),
  title: z.string().nullable(),
  completed: z.boolean().nullable(),
  board_name: z.string().nullable(),
  list_name: z.string().nullable(),
});
export type LinkedTaskView = z.infer<typeof LinkedTaskView>;

/**
 * The open thread as the service knows it: `known` false when it is not in the user's connected mailbox.
 * Its tasks come by id and title (their state unknown, null) until `tasks.states` reads them.
 */
export const ThreadView = z.object({ known: z.boolean(), tasks: z.array(LinkedTaskView) });
export type ThreadView = z.infer<typeof ThreadView>;

/** A task found by title for "add this thread to an existing task". */
export const FoundTaskView = z.object({
  id: z.string(),
  title: z.string(),
  board_name: z.string().nullable(),
  list_name: z.string().nullable(),
});
export type FoundTaskView = z.infer<typeof FoundTaskView>;

/**
 * What the user is writing for one thread, kept by the background in `storage.session` (memory only) so that
 * closing the panel, another thread or a reload loses nothing. See components/task/useDraft.ts.
 */
export const Draft = z.object({
  title: z.string(),
  notes: z.string(),
  due: z.string(),
  position: z.enum(['top', 'bottom']),
  archive: z.boolean(),
  fields: z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())])),
  key: z.string().min(8).max(255),
  edited: z.boolean(),
});
export type Draft = z.infer<typeof Draft>;

export const Request = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('settings.get') }),
  z.strictObject({ type: z.literal('settings.save'), settings: SettingsInput }),
  z.strictObject({ type: z.literal('me.get') }),
  /** "Test connection": signs in with the form's values (an empty secret: the stored one), saving nothing. */
  z.strictObject({ type: z.literal('settings.test'), settings: SettingsInput }),
  z.strictObject({ type: z.literal('shortcut.get') }),
  z.strictObject({ type: z.literal('shortcut.configure') }),
  z.strictObject({ type: z.literal('teams.list') }),
  z.strictObject({ type: z.literal('boards.list'), team_id: Id }),
  z.strictObject({ type: z.literal('boards.personal') }),
  z.strictObject({ type: z.literal('fields.list'), board_id: Id }),
  z.strictObject({ type: z.literal('lists.list'), board_id: Id }),
  z.strictObject({ type: z.literal('members.list'), board_id: Id }),
  z.strictObject({ type: z.literal('thread.get'), thread_id: HexId }),
  /** The state of some of a thread's tasks (the newest few): completed, and where each is. */
  z.strictObject({ type: z.literal('tasks.states'), task_ids: z.array(Id).min(1).max(LINKED_STATES) }),
  z.strictObject({
    type: z.literal('task.create'),
    task: CreateTaskRequest,
    choice: Choice,
    idempotency_key: z.string().min(8).max(255),
    /** Values of the board's custom fields, set on the new task (v2 takes them on update, not on create). */
    custom_fields: z.array(CustomFieldValueInput).min(1).optional(),
    /** A board member to assign the new task to (v1 assign: v2 has no assignment). */
    assignee_email: z.string().min(1).optional(),
  }),
  z.strictObject({ type: z.literal('tasks.search'), team_id: Id, query: z.string().trim().min(1).max(200) }),
  z.strictObject({ type: z.literal('task.linkThread'), task_id: Id, thread_id: HexId }),
  z.strictObject({ type: z.literal('task.complete'), task_id: Id }),
  z.strictObject({ type: z.literal('task.open'), task_id: Id }),
  /** Whether the extension may reach this origin now (a page that cannot ask the browser itself). */
  z.strictObject({ type: z.literal('access.has'), origin: z.string().url() }),
  /** `grant`: at its button that asks for access to the service (a browser that refuses to ask from the panel). */
  z.strictObject({ type: z.literal('options.open'), grant: z.boolean().optional() }),
  /**
   * The panel is about to open (the pointer reached the button, or it was clicked): what it will ask for
   * first (the teams, boards and lists of the last choice) is asked for now, while its frame loads.
   */
  z.strictObject({ type: z.literal('panel.warm') }),
  z.strictObject({ type: z.literal('drafts.get') }),
  /** A null draft forgets the thread's (created, or discarded). */
  z.strictObject({ type: z.literal('drafts.put'), thread_id: HexId, draft: Draft.nullable() }),
  z.strictObject({ type: z.literal('keys.list') }),
  z.strictObject({ type: z.literal('keys.create'), key: CreateApiKeyRequest }),
  z.strictObject({ type: z.literal('keys.revoke'), key_id: Id }),
]);
export type Request = z.input<typeof Request>;
export type RequestType = Request['type'];
export type RequestOf<T extends RequestType> = Extract<Request, { type: T }>;

/** The data each request answers. */
export const Responses = {
  'settings.get': z.object({ settings: SettingsView, choice: Choice.nullable() }),
  'settings.save': SettingsView,
  'me.get': Me,
  'settings.test': Me,
  /** The shortcut as the browser has it now (null: unset), and where the user sets it. */
  'shortcut.get': z.object({ shortcut: z.string().nullable(), where: z.string() }),
  /** Whether the browser's shortcut page could be opened (else the UI names the place). */
  'shortcut.configure': z.object({ opened: z.boolean() }),
  'teams.list': z.array(Team),
  'boards.list': z.array(Board),
  'boards.personal': z.array(Board),
  'fields.list': z.array(CustomField),
  'lists.list': z.array(List),
  'members.list': z.array(BoardMember),
  'thread.get': ThreadView,
  'tasks.states': z.array(LinkedTaskView),
  'task.create': Task,
  'tasks.search': z.array(FoundTaskView),
  'task.linkThread': z.object({ id: z.string(), thread_ids: z.array(z.string()) }),
  'task.complete': Task,
  'task.open': z.object({ url: z.string() }),
  'access.has': z.object({ granted: z.boolean() }),
  'options.open': z.object({ opened: z.literal(true) }),
  'panel.warm': z.object({ warmed: z.boolean() }),
  'drafts.get': z.record(z.string(), Draft),
  'drafts.put': z.object({ thread_id: z.string() }),
  /** `self_id`: the key this extension signs in with, when it is listed. */
  'keys.list': z.object({
    keys: z.array(ApiKey),
    self_id: z.string().nullable(),
  }),
  'keys.create': CreatedApiKey,
  /** `signed_out`: the key was the extension's own, so its stored secret and session are gone. */
  'keys.revoke': z.object({ id: z.string(), signed_out: z.boolean() }),
} satisfies Record<RequestType, z.ZodType>;
export type ResponseOf<T extends RequestType> = z.output<(typeof Responses)[T]>;

/**
 * What went wrong, as the panel explains it: each kind has its own message and next step (lib/messaging.ts).
 * `code` is the service's error code, or `task_created` when the task was made and a later step failed.
 */
export const ERROR_KINDS = [
  'not_configured',
  'signed_out',
  'permission',
  'bad_credentials',
  'subscription',
  'mailbox',
  'unreachable',
  'scope',
  'not_found',
  'thread_unknown',
  'invalid',
  'unknown',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export const Failure = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  code: z.string().optional(),
});
export type Failure = z.infer<typeof Failure>;

export type Result<T> = { ok: true; data: T } | { ok: false; error: Failure };
