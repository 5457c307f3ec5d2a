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
import type { WebhookDelivery } from './v2/webhooks.ts';

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

/** `/tasks/{id}`. */
export interface ConsoleTaskView {
  task: Task;
  custom_fields: CustomField[];
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

/** One delivery as the deliveries page shows it: the log's entry, and the body and signature header sent. */
export type ConsoleDelivery = WebhookDelivery & {
  /** The body as sent (the v2 event, or the v1 Item). */
  body: string | null;
  /** v2: `x-service-signature` as sent at the last attempt (null before one); v1 hooks are unsigned. */
  signature: string | null;
};

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
  deliveries: ConsoleDelivery[];
}

export interface ConsoleDeliveries {
  subscriptions: ConsoleSubscription[];
  /** The event types a v2 subscription may name (for the subscribe form). */
  event_types: string[];
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

/** What the console's event stream sends for each committed change. */
export type ConsoleChange =
  | { topic: 'task'; type: string; task_id: string; board_id: string; list_id: string; from_list_id?: string }
  | { topic: 'board'; board_id: string }
  | { topic: 'thread'; thread_id: string }
  | { topic: 'delivery'; delivery_id?: string }
  | { topic: 'keys' };
