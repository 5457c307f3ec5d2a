// The server-owned mailbox: threads, messages and labels in the service's own database, searched with
// Gmail's syntax. It is also where mail "arrives" (the test-control endpoint delivers through it). It
// sits below the storage line as a whole: it is the storage of a simulated mailbox, behind the
// provider interface the domain uses (domain/mailbox/provider.ts), as a Gmail-backed provider would be.
// Each concern has its own module beside this one; this class only binds them to one mailbox.
import type { Draft, EmailLabel, EmailThread } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import type {
  LabelChange,
  MailboxProvider,
  MailboxRecord,
  OutgoingMessage,
  SentMessageIds,
  ThreadMessages,
} from '../../domain/mailbox/provider.ts';
import type { ViewOptions } from '../../domain/mailbox/threads.ts';
import type { Page, PageRequest } from '../../domain/pagination.ts';
import type { LocalMailbox } from './context.ts';
import * as drafts from './drafts.ts';
import * as labels from './labels.ts';
import * as messages from './messages.ts';
import * as snoozes from './snooze.ts';
import { searchThreads } from './thread-search.ts';

export type { Delivered, IncomingMessage } from './messages.ts';

export class LocalMailboxProvider implements MailboxProvider {
  readonly mailbox: MailboxRecord;
  readonly #local: LocalMailbox;

  constructor(db: Executor, mailbox: MailboxRecord) {
    this.mailbox = mailbox;
    this.#local = { db, mailbox };
  }

  searchThreads(query: string, page: PageRequest, now: Date): Promise<Page<EmailThread>> {
    return searchThreads(this.#local, query, page, now);
  }

  getThread(threadId: string, options: ViewOptions): Promise<EmailThread | null> {
    return messages.getThread(this.#local, threadId, options);
  }

  threadMessages(threadId: string): Promise<ThreadMessages | null> {
    return messages.threadMessages(this.#local, threadId);
  }

  /** Mail arriving from outside (see `messages.deliver`). */
  deliver(threadId: string | null, incoming: messages.IncomingMessage, at: Date) {
    return messages.deliver(this.#local, threadId, incoming, at);
  }

  send(threadId: string | null, message: OutgoingMessage, at: Date): Promise<SentMessageIds | null> {
    return messages.send(this.#local, threadId, message, at);
  }

  listLabels(): Promise<EmailLabel[]> {
    return labels.listLabels(this.#local);
  }

  modifyThreadLabels(threadId: string, change: LabelChange): Promise<boolean> {
    return labels.modifyThreadLabels(this.#local, threadId, change);
  }

  createDraft(threadId: string | null, message: OutgoingMessage, at: Date): Promise<Draft | null> {
    return drafts.createDraft(this.#local, threadId, message, at);
  }

  listDrafts(page: PageRequest): Promise<Page<Draft>> {
    return drafts.listDrafts(this.#local, page);
  }

  sendDraft(draftId: string, at: Date): Promise<SentMessageIds | null> {
    return drafts.sendDraft(this.#local, draftId, at);
  }

  deleteDraft(draftId: string): Promise<boolean> {
    return drafts.deleteDraft(this.#local, draftId);
  }

  snooze(threadId: string, until: Date): Promise<boolean> {
    return snoozes.snooze(this.#local, threadId, until);
  }

  wakeSnoozed(now: Date): Promise<void> {
    return snoozes.wakeSnoozed(this.#local, now);
  }
}
