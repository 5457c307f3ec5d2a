// Messages: reading a mailbox's messages and threads, and writing one (mail arriving, mail sent).
import type { EmailAddress, EmailMessage, EmailThread } from '@threadwork/shared/schemas';
import { perStatement } from '../../db/executor.ts';
import { notFound } from '../../domain/errors.ts';
import { replySubject } from '../../domain/mailbox/message-text.ts';
import type {
  Address,
  OutgoingMessage,
  SentMessageIds,
  ThreadMessages,
} from '../../domain/mailbox/provider.ts';
import {
  compareMessages,
  latestTime,
  messageView,
  type StoredMessage,
  snippetOf,
  type ViewOptions,
} from '../../domain/mailbox/threads.ts';
import {
  changed,
  type LocalMailbox,
  newHexId,
  padded,
  parseAddresses,
  threadExists,
  view,
} from './context.ts';
import { unknownLabels } from './labels.ts';
import { endSnooze } from './snooze.ts';

/** A message as it reaches the mailbox; what is left out takes the value arriving mail would have. */
export interface IncomingMessage {
  from: EmailAddress;
  /** Default: the mailbox owner. */
  to?: EmailAddress[] | undefined;
  cc?: EmailAddress[] | undefined;
  /** Default: `Re: ` and the thread's subject when appended to a thread, otherwise null. */
  subject?: string | null | undefined;
  /** Default: the time it arrives. */
  date?: string | null | undefined;
  body_text?: string | null | undefined;
  body_html?: string | null | undefined;
  /** Default: INBOX and UNREAD. */
  labels?: string[] | undefined;
  attachment_count?: number | undefined;
  /** The address a reply answers instead of `from`. */
  reply_to?: EmailAddress | null | undefined;
  /** Default: the first characters of the body. */
  snippet?: string | null | undefined;
}

/** A message as the provider stores it, every field decided. */
export interface NewMessage {
  from: Address;
  to: Address[];
  cc: Address[];
  bcc: Address[];
  reply_to: Address | null;
  subject: string | null;
  date: string | null;
  body_text: string | null;
  body_html: string | null;
  snippet: string | null;
  labels: string[];
  attachment_count: number;
}

export interface Delivered {
  thread: EmailThread;
  message: EmailMessage;
}

const DEFAULT_INBOUND_LABELS = ['INBOX', 'UNREAD'];

/**
 * Messages of the mailbox with their labels, in no particular order: of one thread, of the threads
 * listed, or all of them.
 */
export async function loadMessages(
  ctx: LocalMailbox,
  scope?: string | readonly string[],
): Promise<StoredMessage[]> {
  if (Array.isArray(scope)) {
    // Few statements, each within the bound-parameter limit.
    const runs = [];
    for (const run of perStatement(scope)) runs.push(await loadMessagesOf(ctx, run.rows));
    return runs.flat();
  }
  return loadMessagesOf(ctx, scope as string | undefined);
}

async function loadMessagesOf(
  ctx: LocalMailbox,
  scope: string | readonly string[] | undefined,
): Promise<StoredMessage[]> {
  const mailboxId = ctx.mailbox.id;
  let messages = ctx.db
    .selectFrom('messages')
    .select([
      'id',
      'thread_id',
      'subject',
      'from_email',
      'from_name',
      'to',
      'cc',
      'date',
      'snippet',
      'body_text',
      'body_html',
      'attachment_count',
      'reply_to',
      'bcc',
    ])
    .where('mailbox_id', '=', mailboxId);
  if (typeof scope === 'string') messages = messages.where('thread_id', '=', scope);
  else if (scope !== undefined) messages = messages.where('thread_id', 'in', padded(scope));
  const rows = await messages.execute();
  // Then their labels by primary key. (A join lets the planner walk every label row of the
  // mailbox; sorting them in SQL, by label, makes it do so.)
  const labelRows: { message_id: string; label_id: string }[] = [];
  const labels = ctx.db
    .selectFrom('message_labels')
    .select(['message_id', 'label_id'])
    .where('mailbox_id', '=', mailboxId);
  if (scope === undefined) {
    labelRows.push(...(await labels.execute()));
  } else {
    for (const run of perStatement(rows.map((row) => row.id))) {
      labelRows.push(...(await labels.where('message_id', 'in', padded(run.rows)).execute()));
    }
  }
  const labelsOf = new Map<string, string[]>();
  for (const row of labelRows) {
    const list = labelsOf.get(row.message_id);
    if (list) list.push(row.label_id);
    else labelsOf.set(row.message_id, [row.label_id]);
  }
  for (const list of labelsOf.values()) list.sort();
  return rows.map((row) => ({
    id: row.id,
    thread_id: row.thread_id,
    subject: row.subject,
    from: { email: row.from_email, name: row.from_name },
    to: parseAddresses(row.to),
    cc: parseAddresses(row.cc),
    date: row.date,
    snippet: row.snippet,
    body_text: row.body_text,
    body_html: row.body_html,
    labels: labelsOf.get(row.id) ?? [],
    attachment_count: Number(row.attachment_count),
    reply_to: row.reply_to === null ? null : (JSON.parse(row.reply_to) as EmailAddress),
    bcc: parseAddresses(row.bcc),
  }));
}

async function freshId(ctx: LocalMailbox): Promise<string> {
  // A collision among 2^60 ids is all but impossible; checking keeps the mailbox consistent anyway.
  for (;;) {
    const id = newHexId();
    const [threadTaken, message] = await Promise.all([
      threadExists(ctx, id),
      ctx.db
        .selectFrom('messages')
        .select('id')
        .where('mailbox_id', '=', ctx.mailbox.id)
        .where('id', '=', id)
        .executeTakeFirst(),
    ]);
    if (!threadTaken && !message) return id;
  }
}

/** The mailbox owner as an address, named as the user is. */
async function owner(ctx: LocalMailbox): Promise<Address> {
  const owner = await ctx.db
    .selectFrom('users')
    .select('display_name')
    .where('id', '=', ctx.mailbox.user_id)
    .executeTakeFirst();
  return { email: ctx.mailbox.email_address, name: owner?.display_name ?? null };
}

/**
 * Writes a message into a thread (a new one when `threadId` is null: Gmail gives a thread's first
 * message the thread's own id). Null when the thread does not exist.
 */
export async function insertMessage(
  ctx: LocalMailbox,
  threadId: string | null,
  message: NewMessage,
  at: Date,
): Promise<{ threadId: string; messageId: string } | null> {
  const unknown = await unknownLabels(ctx, message.labels);
  if (unknown[0] !== undefined) throw notFound('label', unknown[0]);
  const mailboxId = ctx.mailbox.id;
  let targetThread: string;
  let messageId: string;
  if (threadId === null) {
    targetThread = await freshId(ctx);
    messageId = targetThread;
    await ctx.db
      .insertInto('threads')
      .values({ mailbox_id: mailboxId, id: targetThread, created_at: at.toISOString() })
      .execute();
  } else {
    if (!(await threadExists(ctx, threadId))) return null;
    targetThread = threadId;
    messageId = await freshId(ctx);
  }
  const json = (addresses: Address[]) =>
    JSON.stringify(addresses.map((address) => ({ email: address.email, name: address.name })));
  await ctx.db
    .insertInto('messages')
    .values({
      mailbox_id: mailboxId,
      id: messageId,
      thread_id: targetThread,
      subject: message.subject,
      from_email: message.from.email,
      from_name: message.from.name,
      to: json(message.to),
      cc: json(message.cc),
      bcc: message.bcc.length > 0 ? json(message.bcc) : null,
      reply_to: message.reply_to === null ? null : JSON.stringify(message.reply_to),
      date: message.date,
      snippet: message.snippet,
      body_text: message.body_text,
      body_html: message.body_html,
      attachment_count: message.attachment_count,
    })
    .execute();
  const labels = [...new Set(message.labels)];
  if (labels.length > 0) {
    await ctx.db
      .insertInto('message_labels')
      .values(labels.map((label_id) => ({ mailbox_id: mailboxId, message_id: messageId, label_id })))
      .execute();
  }
  if (message.date !== null) await bumpLatest(ctx, targetThread, Date.parse(message.date));
  changed(ctx, targetThread);
  return { threadId: targetThread, messageId };
}

/** A thread's sort key moves forward to a newer message's time. */
export async function bumpLatest(ctx: LocalMailbox, threadId: string, time: number): Promise<void> {
  await ctx.db
    .updateTable('threads')
    .set({ latest_ms: time })
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('id', '=', threadId)
    .where('latest_ms', '<', time)
    .execute();
}

/** A thread's sort key read again from its messages (after one is removed). */
export async function recomputeLatest(ctx: LocalMailbox, threadId: string): Promise<void> {
  const dates = await ctx.db
    .selectFrom('messages')
    .select('date')
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('thread_id', '=', threadId)
    .execute();
  await ctx.db
    .updateTable('threads')
    .set({ latest_ms: latestTime(dates.map((row) => row.date)) })
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('id', '=', threadId)
    .execute();
}

async function threadSubject(ctx: LocalMailbox, threadId: string): Promise<string | null> {
  const first = (await loadMessages(ctx, threadId)).sort(compareMessages)[0];
  return first?.subject ?? null;
}

/**
 * Mail arriving from outside: appends a message to a thread (a new one when `threadId` is null) and
 * answers the thread and the message without bodies. Null when the thread does not exist. Mail that
 * lands in the Inbox ends the thread's snooze, as a reply does in Gmail.
 */
export async function deliver(
  ctx: LocalMailbox,
  threadId: string | null,
  incoming: IncomingMessage,
  at: Date,
): Promise<Delivered | null> {
  if (threadId !== null && !(await threadExists(ctx, threadId))) return null;
  const labels = [...new Set(incoming.labels ?? DEFAULT_INBOUND_LABELS)];
  const subject =
    incoming.subject !== undefined
      ? incoming.subject
      : threadId === null
        ? null
        : replySubject(await threadSubject(ctx, threadId));
  const bodyText = incoming.body_text ?? null;
  const bodyHtml = incoming.body_html ?? null;
  const written = await insertMessage(
    ctx,
    threadId,
    {
      from: incoming.from,
      to: incoming.to ?? [await owner(ctx)],
      cc: incoming.cc ?? [],
      bcc: [],
      reply_to: incoming.reply_to ?? null,
      subject,
      date: incoming.date === undefined ? at.toISOString() : incoming.date,
      body_text: bodyText,
      body_html: bodyHtml,
      snippet: incoming.snippet !== undefined ? incoming.snippet : snippetOf(bodyText, bodyHtml),
      labels,
      attachment_count: incoming.attachment_count ?? 0,
    },
    at,
  );
  if (!written) return null;
  if (labels.includes('INBOX')) await endSnooze(ctx, written.threadId);
  const messages = (await loadMessages(ctx, written.threadId)).sort(compareMessages);
  const message = messages.find((candidate) => candidate.id === written.messageId) as StoredMessage;
  return {
    thread: view(ctx, written.threadId, messages, { bodies: false }),
    message: messageView(message, { bodies: false }),
  };
}

export async function getThread(
  ctx: LocalMailbox,
  threadId: string,
  options: ViewOptions,
): Promise<EmailThread | null> {
  if (!(await threadExists(ctx, threadId))) return null;
  const messages = await loadMessages(ctx, threadId);
  return view(ctx, threadId, messages.sort(compareMessages), options);
}

export async function threadMessages(ctx: LocalMailbox, threadId: string): Promise<ThreadMessages | null> {
  if (!(await threadExists(ctx, threadId))) return null;
  const messages = (await loadMessages(ctx, threadId)).sort(compareMessages);
  return {
    threadId,
    subject: messages[0]?.subject ?? null,
    messages: messages.map((message) => ({
      id: message.id,
      from: message.from,
      to: message.to,
      cc: message.cc,
      reply_to: message.reply_to,
      subject: message.subject,
      date: message.date,
      labels: [...message.labels],
      body_text: message.body_text,
      body_html: message.body_html,
    })),
  };
}

export async function outgoing(
  ctx: LocalMailbox,
  message: OutgoingMessage,
  labels: string[],
  at: Date,
): Promise<NewMessage> {
  return {
    from: await owner(ctx),
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    reply_to: null,
    subject: message.subject,
    date: at.toISOString(),
    body_text: message.body_text,
    body_html: message.body_html,
    snippet: snippetOf(message.body_text, message.body_html),
    labels,
    attachment_count: 0,
  };
}

export async function send(
  ctx: LocalMailbox,
  threadId: string | null,
  message: OutgoingMessage,
  at: Date,
): Promise<SentMessageIds | null> {
  const written = await insertMessage(ctx, threadId, await outgoing(ctx, message, ['SENT'], at), at);
  return written && { message_id: written.messageId, thread_id: written.threadId };
}
