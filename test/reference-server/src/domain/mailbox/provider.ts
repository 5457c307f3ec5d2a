// The one interface between the service and a mailbox. The server ships a local provider (threads,
// messages and labels in its own database); a Gmail-backed provider implements the same methods over
// Gmail's API, and nothing above this interface changes. Thread, message and label ids are the
// provider's raw ids. Tasks, links and events are the service's and stay out of the provider.
import type { Draft, EmailLabel, EmailThread, SentMessage } from '@threadwork/shared/schemas';
import type { Page, PageRequest } from '../pagination.ts';
import type { ViewOptions } from './threads.ts';

/** One row of the `mailboxes` table: whose mailbox, at which provider, and whether it is usable. */
export interface MailboxRecord {
  id: string;
  user_id: string;
  /** The provider's name as the API reports it (EmailThread.provider, Mailbox.provider_id). */
  provider_id: string;
  email_address: string;
  /** connected, not_connected or reauth_required */
  state: string;
}

/** A message the mailbox owner writes (a draft or sent mail); the provider stamps sender and date. */
export interface OutgoingMessage {
  to: Address[];
  cc: Address[];
  bcc: Address[];
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
}

/** What sending answers: where the message now is. */
export type SentMessageIds = SentMessage;

/** An address as the provider reads it. */
export interface Address {
  email: string;
  name: string | null;
}

/** A message as composing a reply or classifying a thread reads it (bodies included). */
export interface MailMessage {
  id: string;
  from: Address;
  to: readonly Address[];
  cc: readonly Address[];
  reply_to: Address | null;
  subject: string | null;
  date: string | null;
  labels: string[];
  body_text: string | null;
  body_html: string | null;
}

/** A thread's messages, oldest first. */
export interface ThreadMessages {
  threadId: string;
  subject: string | null;
  messages: MailMessage[];
}

export interface LabelChange {
  add: readonly string[];
  remove: readonly string[];
}

/**
 * The operations the service needs of a mailbox. Reads return the API's views without linked_tasks.
 * The writes the spec lists beyond these map onto it as follows, so they extend it without reshaping
 * it: read state is a label change of UNREAD, snooze removes INBOX until a time, drafts and sending
 * add messages (with DRAFT or SENT) to a thread. See docs/mailbox.md.
 */
export interface MailboxProvider {
  readonly mailbox: MailboxRecord;
  /** Threads matching a Gmail search query, newest first, paginated. A malformed query is a 400. */
  searchThreads(query: string, page: PageRequest, now: Date): Promise<Page<EmailThread>>;
  /** One thread with its messages oldest first; null when the mailbox has no such thread. */
  getThread(threadId: string, options: ViewOptions): Promise<EmailThread | null>;
  /** System labels first (in their fixed order), then the user's labels by name. */
  listLabels(): Promise<EmailLabel[]>;
  /**
   * Adds and removes labels on every message of a thread; false when the mailbox has no such thread.
   * Archiving removes INBOX; marking read removes UNREAD.
   */
  modifyThreadLabels(threadId: string, change: LabelChange): Promise<boolean>;
  /** A thread's messages with bodies and Reply-To; null when the mailbox has no such thread. */
  threadMessages(threadId: string): Promise<ThreadMessages | null>;
  /** Sends a message: into a thread (null when it does not exist) or, with `threadId` null, a new one. */
  send(threadId: string | null, message: OutgoingMessage, at: Date): Promise<SentMessageIds | null>;
  /** Saves a draft, in a thread (null when it does not exist) or a new one. */
  createDraft(threadId: string | null, message: OutgoingMessage, at: Date): Promise<Draft | null>;
  /** The mailbox's drafts, oldest first. */
  listDrafts(page: PageRequest): Promise<Page<Draft>>;
  /** Sends a draft as it stands; null when there is no such draft. */
  sendDraft(draftId: string, at: Date): Promise<SentMessageIds | null>;
  /** Discards a draft; false when there is no such draft. */
  deleteDraft(draftId: string): Promise<boolean>;
  /** Takes a thread out of the Inbox until `until`; false when the mailbox has no such thread. */
  snooze(threadId: string, until: Date): Promise<boolean>;
  /** Returns to the Inbox every snoozed thread whose time has come. */
  wakeSnoozed(now: Date): Promise<void>;
}
