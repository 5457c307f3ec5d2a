// The mailbox area of the domain: which mailbox a user has, whether it is usable, and the reads and
// changes the API and the tasks area make through its provider. Knows nothing of HTTP.
import type { EmailAddress, EmailLabels, EmailThread, LinkedTask, Mailbox } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { type IncomingMessage, LocalMailboxProvider } from '../../storage/local-mailbox/provider.ts';
import {
  findMailboxOfAddress,
  findUserMailbox,
  holdMailbox,
  linkedTaskRows,
} from '../../storage/mailboxes.ts';
import { boardAccess } from '../access.ts';
import { notFound, ServiceError } from '../errors.ts';
import { recordReplyReceived } from '../events/record.ts';
import type { Page, PageRequest } from '../pagination.ts';
import { type DomainContext, runInTransaction } from '../transaction.ts';
import type { MailboxProvider, MailboxRecord } from './provider.ts';

export type { IncomingMessage } from '../../storage/local-mailbox/provider.ts';
export type { MailboxProvider, MailboxRecord } from './provider.ts';

export interface ThreadSummary {
  threadId: string;
  subject: string | null;
  /** Oldest first. */
  messages: { id: string; from: EmailAddress; date: string | null }[];
}

/**
 * Runs a change of the user's mailbox (drafts, sending, labels, read state, snooze) in one transaction
 * that first holds the mailbox: the user's mailbox changes, each of which may first wake snoozed threads
 * (`openMailbox`), run one after another, and beside every other write.
 */
export function changeMailbox<T>(
  ctx: DomainContext,
  userId: string,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  return runInTransaction(
    ctx,
    async (tx) => {
      await holdMailbox(tx, userId);
      return work(tx);
    },
    'rows',
  );
}

/** The user's mailbox row in whatever state, or null when the user never linked one. */
export async function findMailbox(db: Executor, userId: string): Promise<MailboxRecord | null> {
  return (await findUserMailbox(db, userId)) ?? null;
}

/** The provider that serves a mailbox. Every mailbox is local for now; a Gmail provider plugs in here. */
export function providerFor(db: Executor, mailbox: MailboxRecord): MailboxProvider {
  return new LocalMailboxProvider(db, mailbox);
}

/** What GET /mailbox reports. A mailbox needing reauthorisation still names its account. */
export async function mailboxState(db: Executor, userId: string): Promise<Mailbox> {
  const mailbox = await findMailbox(db, userId);
  if (mailbox?.state === 'connected') {
    return {
      connected: true,
      provider_id: mailbox.provider_id,
      email_address: mailbox.email_address,
      reason: null,
    };
  }
  if (mailbox?.state === 'reauth_required') {
    return {
      connected: false,
      provider_id: mailbox.provider_id,
      email_address: mailbox.email_address,
      reason: 'reauth_required',
    };
  }
  return { connected: false, provider_id: null, email_address: null, reason: 'not_connected' };
}

/** 409 mailbox_not_connected / mailbox_reauth_required unless the mailbox is usable. */
export function assertConnected(mailbox: MailboxRecord | null): asserts mailbox is MailboxRecord {
  if (mailbox?.state === 'connected') return;
  if (mailbox?.state === 'reauth_required') {
    throw new ServiceError(
      'mailbox_reauth_required',
      'the mailbox authorisation is no longer usable; reconnect the mailbox',
    );
  }
  throw new ServiceError('mailbox_not_connected', 'no mailbox is connected; connect one first');
}

/** The user's mailbox or a 409 mailbox_not_connected / mailbox_reauth_required ServiceError. */
export async function requireConnectedMailbox(db: Executor, userId: string): Promise<MailboxRecord> {
  const mailbox = await findMailbox(db, userId);
  assertConnected(mailbox);
  return mailbox;
}

/**
 * The provider of the user's usable mailbox (409 otherwise), with every snoozed thread whose time has
 * come back in the Inbox: snoozes are woken when the mailbox is next used, on the server's clock, so
 * no reader ever sees a thread still snoozed after its `until` (docs/mailbox.md, "Snooze").
 */
export async function openMailbox(db: Executor, userId: string, now: Date): Promise<MailboxProvider> {
  const provider = providerFor(db, await requireConnectedMailbox(db, userId));
  await provider.wakeSnoozed(now);
  return provider;
}

/**
 * Tasks linked to a thread that the user can reach: not archived, on a board of one of the user's
 * teams whose subscription is paid, or on the user's own personal board. Oldest task first.
 */
export async function linkedTasksOf(db: Executor, userId: string, threadId: string): Promise<LinkedTask[]> {
  const rows = await linkedTaskRows(db, userId, threadId);
  return rows
    .filter((row) => boardAccess(row, userId) === 'open')
    .map((row) => ({ id: row.id, title: row.title }));
}

/** GET /email-threads: Gmail search over the user's mailbox, newest first, without linked_tasks. */
export async function searchThreads(
  db: Executor,
  userId: string,
  query: string,
  page: PageRequest,
  now: Date,
): Promise<Page<EmailThread>> {
  return (await openMailbox(db, userId, now)).searchThreads(query, page, now);
}

/** GET /email-threads/{id}: the thread with its linked tasks, and its messages with bodies if asked. */
export async function getThread(
  db: Executor,
  userId: string,
  threadId: string,
  options: { messages: boolean },
  now: Date,
): Promise<EmailThread> {
  const provider = await openMailbox(db, userId, now);
  const thread = await provider.getThread(threadId, { bodies: options.messages });
  if (!thread) throw notFound('thread', threadId);
  return { ...thread, linked_tasks: await linkedTasksOf(db, userId, threadId) };
}

/** GET /email-labels: system labels, then the user's own. */
export async function listLabels(db: Executor, userId: string, now: Date): Promise<EmailLabels> {
  return { labels: await (await openMailbox(db, userId, now)).listLabels() };
}

/** A thread of the user's mailbox (null if absent), with its messages oldest first (no bodies needed). */
export async function findThread(
  db: Executor,
  userId: string,
  threadId: string,
): Promise<ThreadSummary | null> {
  const mailbox = await findMailbox(db, userId);
  if (!mailbox) return null;
  const provider = providerFor(db, mailbox);
  // The view with messages carries from and date per message; bodies are not needed.
  const thread = await provider.getThread(threadId, { bodies: true });
  if (!thread) return null;
  return {
    threadId: thread.thread_id,
    subject: thread.subject,
    messages: (thread.messages ?? []).map((message) => ({
      id: message.id,
      from: message.from,
      date: message.date,
    })),
  };
}

/** Removes INBOX from every message of the thread (Gmail's archive). */
export async function archiveThread(db: Executor, userId: string, threadId: string): Promise<void> {
  const mailbox = await requireConnectedMailbox(db, userId);
  const found = await providerFor(db, mailbox).modifyThreadLabels(threadId, { add: [], remove: ['INBOX'] });
  if (!found) throw notFound('thread', threadId);
}

export interface InboundMessageInput {
  /** The receiving mailbox's address (case-insensitive). */
  mailbox: string;
  /** Append to this thread; a new thread when absent. */
  thread_id?: string | undefined;
  message: IncomingMessage;
}

/**
 * Mail arriving from the provider: appends the message and records thread.reply_received (thread and
 * message without bodies, with the owner's linked tasks). Run it inside the state change's
 * transaction. 404 for an unknown mailbox or thread, 409 when the mailbox is not connected.
 */
export async function receiveInboundMessage(
  tx: Executor,
  input: InboundMessageInput,
  at: Date,
): Promise<{ thread_id: string; message_id: string }> {
  const row = await findMailboxOfAddress(tx, input.mailbox);
  if (!row) throw notFound('mailbox', input.mailbox);
  assertConnected(row);
  const provider = new LocalMailboxProvider(tx, row);
  const delivered = await provider.deliver(input.thread_id ?? null, input.message, at);
  if (!delivered) throw notFound('thread', input.thread_id ?? '');
  const { thread, message } = delivered;
  const linkedTasks = await linkedTasksOf(tx, row.user_id, thread.thread_id);
  await recordReplyReceived(tx, { userId: row.user_id, thread, message, linkedTasks }, at);
  return { thread_id: thread.thread_id, message_id: message.id };
}
