// The one interface between the service and a mailbox. The server ships a local provider (threads,
// messages and labels in its own database); a Gmail-backed provider implements the same methods over
// Gmail's API, and nothing above this interface changes. Thread, message and label ids are the
// provider's raw ids. Tasks, links and events are the service's and stay out of the provider.
import type { EmailLabel, EmailThread } from '@threadwork/shared/schemas';
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

export interface LabelChange {
  add: readonly string[];
  remove: readonly string[];
}

/**
 * The operations the service needs of a mailbox. Reads return the API's views without linked_tasks.
 * The writes the spec lists beyond these map onto it as follows, so they extend it without reshaping
 * it: read state is a label change of UNREAD, snooze removes INBOX until a time, drafts and sending
 * add messages (with DRAFT or SENT) to a thread.
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
}
