// The console's own API (`/_console/api/…`, served only with `--console`; docs/console.md): the pages'
// answers are built from the v2 resource schemas, and its writes take the v2 request bodies where v2
// has the operation. The browser imports only the types (no zod in its bundle); the server validates
// every request with these schemas.
import { z } from 'zod';
import { NameString, NonEmptyString, TitleString } from './common.ts';
import { Scope } from './scopes.ts';
import type { CustomField } from './v2/custom-fields.ts';
import type { EmailLabel, EmailThread, LinkedTask } from './v2/email.ts';
import type { ApiKey } from './v2/keys.ts';
import type { Task } from './v2/tasks.ts';
import type { Board, List, Team } from './v2/teams.ts';
import { DELIVERY_STATUSES, type WebhookDelivery } from './v2/webhooks.ts';

/** Who the console acts as. */
export interface ConsoleUser {
  user_id: string;
  email: string;
  display_name: string | null;
}

/** `/`: every team of the user with its subscription, its boards when it is paid, and personal boards. */
export interface ConsoleOverview {
  user: ConsoleUser;
  teams: { team: Team; boards: Board[] | null }[];
  personal_boards: Board[];
}

/** One page of a list's tasks, top to bottom. */
export interface ConsoleTaskPage {
  tasks: Task[];
  next_cursor: string | null;
}

export interface ConsoleBoardList extends ConsoleTaskPage {
  list: List;
}

/** `/boards/{id}`: lists left to right, each with its first page of tasks. */
export interface ConsoleBoardView {
  board: Board;
  lists: ConsoleBoardList[];
  custom_fields: CustomField[];
  /** Every shade a task may take, in the spec's order. */
  shades: string[];
}

/** One recorded event of a task, oldest first. */
export interface ConsoleTaskEvent {
  id: string;
  type: string;
  created_at: string;
  from_list_id?: string;
  to_list_id?: string;
  /** task.updated: the Task fields it changed (the keys of its `previous_attributes`). */
  changed?: string[];
}

/** Someone a task of the board may be assigned to. */
export interface ConsoleMember {
  user_id: string;
  email: string;
  display_name: string | null;
}

/** `/tasks/{id}`: the task, what its page may change it to, its threads and events. */
export interface ConsoleTaskView {
  task: Task;
  /** When it was archived (it then leaves its list's listing); null while it is on its list. */
  archived_at: string | null;
  custom_fields: CustomField[];
  /** The lists of the task's board, left to right (where it may move). */
  lists: List[];
  /** Who may be assigned (the board's members). */
  members: ConsoleMember[];
  shades: string[];
  threads: { thread_id: string; subject: string | null; in_mailbox: boolean }[];
  events: ConsoleTaskEvent[];
}

/** `/mail`: the user's threads, newest first, with the mailbox's labels. */
export interface ConsoleMailbox {
  address: string | null;
  connected: boolean;
  reason: string | null;
  labels: EmailLabel[];
  threads: EmailThread[];
  next_cursor: string | null;
}

/** `/mail/{thread_id}`: messages with text bodies (never HTML), linked tasks. */
export interface ConsoleThreadView {
  thread: EmailThread;
  linked_tasks: LinkedTask[];
  labels: EmailLabel[];
}

/** A delivery's row on the deliveries page (collapsed): the log's entry without its attempts. */
export interface ConsoleDeliveryRow {
  id: string;
  kind: 'v2' | 'v1';
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  /** The last attempt's answer code and time; null before the first attempt (or when none came). */
  last_status_code: number | null;
  last_attempted_at: string | null;
}

/** One attempt still ahead of a pending delivery: its number and when it is due, before jitter. */
export interface ConsoleScheduledAttempt {
  number: number;
  at: string;
}

/** A delivery opened on the deliveries page: every attempt, what it carries, and what is still ahead. */
export type ConsoleDeliveryDetail = WebhookDelivery & {
  kind: 'v2' | 'v1';
  target_url: string;
  /** The body as sent (the v2 event, or the v1 Item). */
  body: string | null;
  /** v2: `x-service-signature` as sent at the last attempt (null before one); v1 hooks are unsigned. */
  signature: string | null;
  /** Attempts still ahead if each fails (empty unless pending); each may move by the jitter (`jitter`). */
  schedule: ConsoleScheduledAttempt[];
  /** The fraction each wait may vary by, either way. */
  jitter: number;
};

/** A v2 webhook subscription or v1 hook, with how many of its deliveries stand in each status. */
export interface ConsoleSubscription {
  kind: 'v2' | 'v1';
  id: string;
  target_url: string;
  /** v2: the event types; v1: the action. */
  events: string[];
  status: string;
  /** v2, while disabled: why (`manual`, `gone`, `failing`, `key_revoked`); null otherwise. */
  disabled_reason: string | null;
  /** v1: the list or board the hook watches. */
  entity_id: string | null;
  /** Since when every attempt to it has failed (null while its last attempt succeeded). */
  failing_since: string | null;
  /** v2, after a rotation: until when the previous signing secret still signs beside the new one. */
  previous_secret_until: string | null;
  counts: Record<'pending' | 'delivered' | 'failed' | 'suppressed', number>;
}

/** What the deliveries page filters by (all kept in its URL). */
export interface ConsoleDeliveryFilter {
  status: string | null;
  event_type: string | null;
  subscription_id: string | null;
}

/** `/deliveries`: the user's subscriptions, and one page of their deliveries (newest first, filtered). */
export interface ConsoleDeliveries {
  subscriptions: ConsoleSubscription[];
  deliveries: ConsoleDeliveryRow[];
  filter: ConsoleDeliveryFilter;
  /** Cursors of the older and the newer page; null where there is none. */
  older: string | null;
  newer: string | null;
  /** The event types a v2 subscription may name (for the subscribe form). */
  event_types: string[];
  /** Every event type or v1 action the user's deliveries may carry (for the filter). */
  delivery_types: string[];
  /** The console's own test receiver (docs/console.md). */
  receiver: ConsoleReceiver;
}

/** The console's test receiver: where it listens and the newest deliveries it took. */
export interface ConsoleReceiver {
  /** Its URL; null when this server refuses loopback targets (started without --allow-insecure-webhooks). */
  url: string | null;
  /** Newest first, a bounded number, kept in memory since the server started. */
  received: ConsoleReceived[];
}

/** One request the test receiver took, and what it made of it. */
export interface ConsoleReceived {
  received_at: string;
  delivery_id: string | null;
  event_id: string | null;
  event_type: string | null;
  /** `valid`: the signature checked out against the subscription's secrets; `unsigned`: a v1 hook's. */
  signature: 'valid' | 'invalid' | 'unsigned';
  /** Why it was refused (an invalid signature, an unknown delivery); null when accepted. */
  error: string | null;
  /** What the receiver answered. */
  status_code: number;
}

/** `/keys`: the user's keys and the scope catalogue (opt-in scopes are never granted by default). */
export interface ConsoleKeys {
  keys: ApiKey[];
  scopes: string[];
  opt_in_scopes: string[];
  default_scopes: string[];
}

// Requests

/** Add a task to a list (the title input on each list). */
export const ConsoleNewTaskRequest = z.strictObject({ list_id: z.string().min(1), title: TitleString });
export type ConsoleNewTaskRequest = z.infer<typeof ConsoleNewTaskRequest>;

/** Complete or reopen a task. */
export const ConsoleCompleteRequest = z.strictObject({ completed: z.boolean() });
export type ConsoleCompleteRequest = z.infer<typeof ConsoleCompleteRequest>;

/** Assign a task to a member of its board by email, or to nobody (null). */
export const ConsoleAssignRequest = z.strictObject({ email: z.string().min(1).nullable() });
export type ConsoleAssignRequest = z.infer<typeof ConsoleAssignRequest>;

/** "Simulate a reply": an inbound message on the thread, from the thread's other party. */
export const ConsoleInboundRequest = z.strictObject({
  body_text: NonEmptyString,
  unread: z.boolean().default(true),
});
export type ConsoleInboundRequest = z.infer<typeof ConsoleInboundRequest>;

/** Create a key: any scopes, opt-in ones included (the console is the user). */
export const ConsoleCreateKeyRequest = z.strictObject({
  name: NameString,
  type: z.enum(['v2', 'legacy']),
  scopes: z.array(Scope).min(1).optional(),
});
export type ConsoleCreateKeyRequest = z.infer<typeof ConsoleCreateKeyRequest>;

/** The deliveries page's query: its filters and page (`before`/`after`: cursors it was given). */
export const ConsoleDeliveriesQuery = z.strictObject({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event_type: z.string().min(1).optional(),
  subscription_id: z.string().min(1).optional(),
  before: z.string().min(1).optional(),
  after: z.string().min(1).optional(),
});
export type ConsoleDeliveriesQuery = z.infer<typeof ConsoleDeliveriesQuery>;

/**
 * What the console's event stream sends for each committed change. `task`: an event of the task, or a
 * reorder (`task.reordered`, which records no event); `board`: the board, its lists or its custom fields;
 * `delivery`: a delivery queued or attempted; `subscription`: a v2 subscription or v1 hook made, changed
 * or deleted.
 */
export type ConsoleChange =
  | { topic: 'task'; type: string; task_id: string; board_id: string; list_id: string; from_list_id?: string }
  | { topic: 'board'; board_id: string }
  | { topic: 'thread'; thread_id: string }
  | { topic: 'delivery'; delivery_id?: string }
  | { topic: 'subscription'; subscription_id?: string }
  | { topic: 'keys' };
