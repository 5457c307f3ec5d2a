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
  HexId,
  List,
  Me,
  SCOPES,
  Task,
  Team,
} from '@threadwork/shared/schemas';
import { z } from 'zod';

const Id = z.string().min(1);

/** What the settings form edits. An empty `apiSecret` on save keeps the stored one. */
export const SettingsInput = z.strictObject({
  origin: z
    .string()
    .trim()
    .refine((value) => /^https?:\/\/[^/]+/.test(value) && URL.canParse(value), {
      message: 'must be an http(s) URL, e.g. https://app.example.com',
    }),
  email: z.string().trim().min(1, { message: 'is required' }),
  apiKey: z.string().trim().min(1, { message: 'is required' }),
  apiSecret: z.string(),
  keyName: z.string().trim().min(1, { message: 'is required' }),
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
});
export type SettingsView = z.infer<typeof SettingsView>;

/** The last team, board and list of a successful create. */
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

/** A task found by title for "add this thread to an existing task". */
export const FoundTaskView = z.object({
  id: z.string(),
  title: z.string(),
  board_name: z.string().nullable(),
  list_name: z.string().nullable(),
});
export type FoundTaskView = z.infer<typeof FoundTaskView>;

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
  z.strictObject({ type: z.literal('lists.list'), board_id: Id }),
  z.strictObject({ type: z.literal('members.list'), board_id: Id }),
  z.strictObject({ type: z.literal('thread.linkedTasks'), thread_id: HexId }),
  z.strictObject({
    type: z.literal('task.create'),
    task: CreateTaskRequest,
    choice: Choice,
    idempotency_key: z.string().min(8).max(255),
    /** A board member to assign the new task to (v1 assign: v2 has no assignment). */
    assignee_email: z.string().min(1).optional(),
  }),
  z.strictObject({ type: z.literal('tasks.search'), team_id: Id, query: z.string().trim().min(1).max(200) }),
  z.strictObject({ type: z.literal('task.linkThread'), task_id: Id, thread_id: HexId }),
  z.strictObject({ type: z.literal('task.complete'), task_id: Id }),
  z.strictObject({ type: z.literal('task.open'), task_id: Id }),
  z.strictObject({ type: z.literal('options.open') }),
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
  'lists.list': z.array(List),
  'members.list': z.array(BoardMember),
  'thread.linkedTasks': z.array(LinkedTaskView),
  'task.create': Task,
  'tasks.search': z.array(FoundTaskView),
  'task.linkThread': z.object({ id: z.string(), thread_ids: z.array(z.string()) }),
  'task.complete': Task,
  'task.open': z.object({ url: z.string() }),
  'options.open': z.object({ opened: z.literal(true) }),
  /** `self_id`: the key this extension signs in with, when it is listed. */
  'keys.list': z.object({
    keys: z.array(ApiKey),
    scopes: z.array(z.enum(SCOPES)),
    /** Scopes a key gets only when they are chosen by name. */
    opt_in: z.array(z.enum(SCOPES)),
    self_id: z.string().nullable(),
  }),
  'keys.create': CreatedApiKey,
  /** `signed_out`: the key was the extension's own, so its stored secret and session are gone. */
  'keys.revoke': z.object({ id: z.string(), signed_out: z.boolean() }),
} satisfies Record<RequestType, z.ZodType>;
export type ResponseOf<T extends RequestType> = z.output<(typeof Responses)[T]>;

/**
 * What went wrong, as the panel explains it: each kind has its own message and next step.
 * `not_configured` and `permission` point to the settings.
 */
export const ERROR_KINDS = [
  'not_configured',
  'permission',
  'bad_credentials',
  'subscription',
  'mailbox',
  'unreachable',
  'scope',
  'not_found',
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
