// Row shapes of every table. Booleans are stored as 0/1 integers and JSON as text so that the same
// columns work on SQLite and PostgreSQL; timestamps are ISO 8601 UTC strings.
import type { ColumnType, Generated } from 'kysely';
import type { TaskFieldColumns } from './task-fields.ts';

export interface UsersTable {
  id: string;
  email: string;
  display_name: string | null;
  created_at: string;
}

export interface TeamsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
}

/** One row per team that has a subscription record; no row means `subscription: null`. */
export interface SubscriptionsTable {
  team_id: string;
  plan: string | null;
  status: string;
}

export interface BoardsTable {
  id: string;
  team_id: string | null;
  owner_id: string | null;
  name: string;
  board_type: string;
  template: string | null;
  created_at: string;
}

export interface ListsTable {
  id: string;
  board_id: string;
  name: string;
  /** 0-based order within the board. */
  position: number;
  created_at: string;
}

export interface CustomFieldsTable {
  id: string;
  board_id: string;
  name: string;
  type: string;
  ai: number;
  display_on_card: number;
  position: number;
}

export interface CustomFieldOptionsTable {
  id: string;
  field_id: string;
  label: string;
  position: number;
}

/**
 * A task's row: the columns of its fields (db/task-fields.ts declares them, one entry per field), and
 * its id, place and bookkeeping.
 */
export type TasksTable = TaskFieldColumns & {
  id: string;
  list_id: string;
  /** Order within the list, smaller = higher; may be negative and have gaps (see domain/placement.ts). */
  position: number;
  assignee_id: string | null;
  /** Non-null when archived: an archived task leaves its list's listing. */
  archived_at: string | null;
  updated_at: string;
};

export interface TaskThreadsTable {
  task_id: string;
  thread_id: string;
  /** Order in which the threads were linked; the first is the task's `first_thread`. */
  position: number;
}

export interface TaskCustomValuesTable {
  task_id: string;
  field_id: string;
  /** JSON text of the stored value (option ids for option types). */
  value: string;
}

export interface ContactsTable {
  id: string;
  team_id: string;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  type: string | null;
  stage: string | null;
  source: string | null;
  /** JSON text: array of { type, value }. */
  contact_info: string;
  /** JSON text: array of strings. */
  tags: string;
  company_id: string | null;
  created_at: string;
}

export interface CompaniesTable {
  id: string;
  team_id: string;
  name: string | null;
  type: string | null;
  stage: string | null;
  /** JSON text: array of { type, value }. */
  company_info: string;
  /** JSON text: array of strings. */
  tags: string;
  /** 1 for the team's default company (contacts created without a company join it). */
  is_default: Generated<number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  /** `v2` (bearer secret) or `legacy` (api_key + api_secret exchanged for a session token). */
  type: string;
  name: string;
  /** The public half of a legacy key; null for v2 keys. */
  api_key: string | null;
  /** sha256 hex of the secret (v2 secret or legacy api_secret); the secret itself is never stored. */
  secret_hash: string;
  /** JSON text: the scope names the key holds (a legacy key's session tokens hold them on v2). */
  scopes: string;
  created_at: string;
  last_used_at: string | null;
}

export interface IdempotencyKeysTable {
  /** The credential the key is scoped to, e.g. `key:key_zap`. */
  credential: string;
  key: string;
  /** sha256 hex of method, path and raw body. */
  fingerprint: string;
  /** Rows are written once, with their answer: a running key is held in memory, not here. */
  status_code: number;
  /** The JSON text answered the first time. */
  response_body: string;
  created_at: string;
  expires_at: string;
}

/** Server-wide values generated once and kept across restarts (e.g. the session token signing secret). */
export interface ServerSettingsTable {
  name: string;
  value: string;
}

/**
 * The outbox: every domain event, written in the same transaction as the change it records. The
 * delivery worker reads only this table.
 */
export interface EventsTable {
  seq: Generated<number>;
  id: string;
  type: string;
  created_at: string;
  team_id: string | null;
  board_id: string | null;
  list_id: string | null;
  task_id: string | null;
  /** The user whose mailbox or action produced the event (null when not user-specific). */
  user_id: string | null;
  /** JSON text of the event's `data`. */
  data: string;
}

export interface MailboxesTable {
  id: string;
  user_id: string;
  provider_id: string;
  email_address: string;
  /** connected, not_connected or reauth_required */
  state: string;
  created_at: string;
}

export interface LabelsTable {
  mailbox_id: string;
  id: string;
  name: string | null;
  /** system or user */
  type: string;
}

export interface ThreadsTable {
  mailbox_id: string;
  id: string;
  created_at: string;
  /** Epoch ms of the latest dated message, -1 when none has a date: the search order. */
  latest_ms: ColumnType<number, number | undefined, number>;
}

export interface MessagesTable {
  mailbox_id: string;
  id: string;
  thread_id: string;
  subject: string | null;
  from_email: string;
  from_name: string | null;
  /** JSON text: array of { email, name }. */
  to: string;
  /** JSON text: array of { email, name }. */
  cc: string;
  date: string | null;
  snippet: string | null;
  body_text: string | null;
  body_html: string | null;
  /** Number of attachments (`has:attachment`); 0 unless given. */
  attachment_count: Generated<number>;
  /** JSON text: the EmailAddress a reply answers instead of the sender, or null. */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON text: array of { email, name }; null when the message has no blind copies. */
  bcc: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A draft: a message with the DRAFT label, reached by its own draft id. */
export interface DraftsTable {
  mailbox_id: string;
  id: string;
  message_id: string;
  updated_at: string;
}

/** A thread out of the Inbox until `until_ms` (epoch milliseconds, server clock). */
export interface SnoozesTable {
  mailbox_id: string;
  thread_id: string;
  until_ms: number;
}

/** The cached classification of a thread, valid while `message_id` is its newest message. */
export interface ThreadAnalysesTable {
  mailbox_id: string;
  thread_id: string;
  message_id: string;
  urgency: string;
  sentiment: string;
  status: string;
  analyzed_at: string;
  model: string;
}

export interface MessageLabelsTable {
  mailbox_id: string;
  message_id: string;
  label_id: string;
}

export interface Database {
  users: UsersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  subscriptions: SubscriptionsTable;
  boards: BoardsTable;
  lists: ListsTable;
  custom_fields: CustomFieldsTable;
  custom_field_options: CustomFieldOptionsTable;
  tasks: TasksTable;
  task_threads: TaskThreadsTable;
  task_custom_values: TaskCustomValuesTable;
  contacts: ContactsTable;
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  server_settings: ServerSettingsTable;
  events: EventsTable;
  mailboxes: MailboxesTable;
  labels: LabelsTable;
  threads: ThreadsTable;
  messages: MessagesTable;
  message_labels: MessageLabelsTable;
  drafts: DraftsTable;
  snoozes: SnoozesTable;
  thread_analyses: ThreadAnalysesTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  v1_hook_subscriptions: V1HookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  v1_hook_payloads: V1HookPayloadsTable;
}

/** A v2 webhook subscription, owned by the user of the key that created it. */
export interface WebhookSubscriptionsTable {
  id: string;
  user_id: string;
  /**
   * The API key it belongs to: the one that made or last re-enabled it (a session token's legacy key);
   * null for one made in the console. Revoking the key disables it (`key_revoked`). No foreign key: a
   * revoked key's id stays, to say whose it was.
   */
  key_id: string | null;
  target_url: string;
  /** JSON text: array of event types. */
  events: string;
  /** JSON text of the filters, or null. */
  filters: string | null;
  /** active or disabled */
  status: string;
  /** manual, gone, failing or key_revoked while disabled; null while active. */
  disabled_reason: string | null;
  /**
   * JSON text: array of { secret, expires_at } signing secrets, newest first. Kept in clear because
   * they sign; a rotated-out secret carries its expiry, the current one none.
   */
  secrets: string;
  /** Start of the current streak of failed attempts; null after a success. */
  failing_since: string | null;
  created_at: string;
}

/** A v1 hook subscription (the automation platform's REST hooks). */
export interface V1HookSubscriptionsTable {
  id: string;
  user_id: string;
  /** The legacy key whose session token made it (null: made in the console); revoking the key deletes it. */
  key_id: string | null;
  action: string;
  /** The list or board the action watches (V1_ACTION_TARGETS). */
  entity_id: string;
  webhook_url: string;
  api_service: string | null;
  failing_since: string | null;
  created_at: string;
}

/** One event owed to one subscription: the outbox the delivery worker reads. */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  /** v2 (webhook_subscriptions) or v1 (v1_hook_subscriptions). */
  kind: string;
  subscription_id: string;
  event_id: string;
  /** The v2 event type, or the v1 action. */
  event_type: string;
  /** 1 for test deliveries and replays: sent even while the subscription is disabled. */
  manual: number;
  /**
   * pending, delivered, failed or suppressed (recorded while its subscription was disabled, or stopped
   * because another delivery of its event to its subscription succeeded)
   */
  status: string;
  /** 1 while the worker is posting it; cleared on start, so a crash mid-attempt retries it. */
  in_flight: number;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
}

/**
 * The body every v1 hook of an event POSTs (the v1 Item), stored once per event. A v2 delivery's body
 * is built from the `events` row, so the outbox rows themselves stay small.
 */
export interface V1HookPayloadsTable {
  event_id: string;
  body: string;
}

export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  /** 1-based attempt number within the delivery. */
  number: number;
  attempted_at: string;
  /** succeeded or failed */
  outcome: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The answer's content-type header; null when no answer came or it had none. */
  response_content_type: string | null;
  /** The answer body's first 4 KiB as text (delivery/post.ts); null when no answer came. */
  response_body: string | null;
}
