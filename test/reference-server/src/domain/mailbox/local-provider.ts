// The server-owned mailbox: threads, messages and labels in the service's own database, searched with
// Gmail's syntax. It is also where mail "arrives" (the test-control endpoint delivers through it).
import { randomBytes } from 'node:crypto';
import {
  type Draft,
  type EmailAddress,
  type EmailLabel,
  type EmailMessage,
  type EmailThread,
  PAGE_LIMIT_DEFAULT,
} from '@threadwork/shared/schemas';
import { type SqlBool, SqliteAdapter, sql } from 'kysely';
import { type Executor, perStatement } from '../../db/database.ts';
import { notFound, ServiceError } from '../errors.ts';
import { noteChange } from '../events/feed.ts';
import { encodeCursor, type Page, type PageRequest, paginate } from '../pagination.ts';
import { SYSTEM_LABEL_IDS, SYSTEM_LABELS } from '../system-labels.ts';
import { prefilterOf } from './prefilter.ts';
import type {
  Address,
  LabelChange,
  MailboxProvider,
  MailboxRecord,
  OutgoingMessage,
  SentMessageIds,
  ThreadMessages,
} from './provider.ts';
import { compileQuery, indexMessage, labelResolver, parseSearchQuery } from './search.ts';
import {
  compareMessages,
  latestTime,
  messageView,
  type StoredMessage,
  snippetOf,
  threadView,
  type ViewOptions,
} from './threads.ts';

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
interface NewMessage {
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
const parseAddresses = (text: string | null) => (text === null ? [] : (JSON.parse(text) as EmailAddress[]));

/** `Re: ` and a thread's subject, unless it already starts so (as mail clients write it). */
export function replySubject(subject: string | null): string | null {
  return subject === null || /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}

/** A body as a draft or sent message stores it: HTML in body_html, plain text in body_text. */
export function bodyParts(
  body: string,
  isHtml: boolean,
): { body_text: string | null; body_html: string | null } {
  return isHtml ? { body_text: null, body_html: body } : { body_text: body, body_html: null };
}

let lastHexId = 0n;

/**
 * A Gmail-like raw id: 16 lowercase hex digits, the first not 0. Like Gmail's, ids grow with time (the
 * millisecond clock, then 20 random bits) and, within this process, strictly: messages with the same
 * date then keep the order they arrived in (compareMessages breaks date ties by id).
 */
export function newHexId(): string {
  const random = BigInt(randomBytes(3).readUIntBE(0, 3) & 0xfffff);
  let id = (BigInt(Date.now()) << 20n) | random;
  if (id <= lastHexId) id = lastHexId + 1n;
  lastHexId = id;
  return id.toString(16).padStart(16, '0');
}

/**
 * A list of ids for `IN (…)`, its length rounded up to a power of two by repeating the last id (which
 * changes nothing): statements are prepared once per SQL text and kept, and a text per list length
 * would push the server's common statements out of that cache.
 */
function padded(ids: readonly string[]): string[] {
  let size = 8;
  while (size < ids.length) size *= 2;
  const last = ids.at(-1);
  return last === undefined ? [...ids] : [...ids, ...Array<string>(size - ids.length).fill(last)];
}

/** Threads a search reads per statement while it looks for a page of matches. */
const SEARCH_BATCH = 200;

/** Threads sort newest first by their latest dated message; undated threads last. */
type ThreadKey = [number, string];

/** Ascending order of thread keys: time, then id. */
function compareKeys(a: ThreadKey, b: ThreadKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

function decodeThreadCursor(cursor: string): ThreadKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (Array.isArray(key) && key.length === 2 && typeof key[0] === 'number' && typeof key[1] === 'string') {
    return [key[0], key[1]];
  }
  throw new ServiceError('validation_error', 'cursor: not a cursor this server issued', [
    { path: 'cursor', message: 'not a cursor this server issued' },
  ]);
}

export class LocalMailboxProvider implements MailboxProvider {
  readonly mailbox: MailboxRecord;
  readonly #db: Executor;

  constructor(db: Executor, mailbox: MailboxRecord) {
    this.#db = db;
    this.mailbox = mailbox;
  }

  /**
   * Messages of the mailbox with their labels, in no particular order: of one thread, of the threads
   * listed, or all of them.
   */
  async #loadMessages(scope?: string | readonly string[]): Promise<StoredMessage[]> {
    if (Array.isArray(scope)) {
      // Few statements, each within the bound-parameter limit.
      const runs = [];
      for (const run of perStatement(scope)) runs.push(await this.#loadMessagesOf(run.rows));
      return runs.flat();
    }
    return this.#loadMessagesOf(scope as string | undefined);
  }

  async #loadMessagesOf(scope: string | readonly string[] | undefined): Promise<StoredMessage[]> {
    const mailboxId = this.mailbox.id;
    let messages = this.#db
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
    const labels = this.#db
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

  async #userLabels(): Promise<{ id: string; name: string | null }[]> {
    return this.#db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('mailbox_id', '=', this.mailbox.id)
      .where('type', '=', 'user')
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  async #threadExists(threadId: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('threads')
      .select('id')
      .where('mailbox_id', '=', this.mailbox.id)
      .where('id', '=', threadId)
      .executeTakeFirst();
    return row !== undefined;
  }

  #view(threadId: string, messages: readonly StoredMessage[], options: ViewOptions): EmailThread {
    return threadView(
      { providerId: this.mailbox.provider_id, ownerEmail: this.mailbox.email_address, threadId, messages },
      options,
    );
  }

  async searchThreads(query: string, page: PageRequest, now: Date): Promise<Page<EmailThread>> {
    const root = parseSearchQuery(query);
    const after = page.cursor === undefined ? null : decodeThreadCursor(page.cursor);
    const limit = page.limit ?? PAGE_LIMIT_DEFAULT;
    const labels = await this.#userLabels();
    const context = { now, ownerEmail: this.mailbox.email_address, labels };
    const prefilter = prefilterOf(root, {
      mailboxId: this.mailbox.id,
      // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE for that.
      like: this.#db.getExecutor().adapter instanceof SqliteAdapter ? 'like' : 'ilike',
      owner: this.mailbox.email_address.toLowerCase(),
      resolve: labelResolver(labels),
    });
    // One pass of the pre-filter over the mailbox names the candidate threads with their sort keys;
    // only they are read, newest first.
    let ordered: ThreadKey[] | null = null;
    if (prefilter !== true) {
      const rows =
        prefilter === false
          ? []
          : await this.#db
              .selectFrom('messages')
              .innerJoin('threads', (join) =>
                join
                  .onRef('threads.mailbox_id', '=', 'messages.mailbox_id')
                  .onRef('threads.id', '=', 'messages.thread_id'),
              )
              .select(['threads.id', 'threads.latest_ms'])
              .distinct()
              .where('messages.mailbox_id', '=', this.mailbox.id)
              .where(prefilter)
              .execute();
      // PostgreSQL answers a bigint as text.
      ordered = rows
        .map((row): ThreadKey => [Number(row.latest_ms), row.id])
        .filter((key) => !after || compareKeys(key, after) < 0)
        .sort((a, b) => compareKeys(b, a));
    }
    const compiled = compileQuery(root, context);

    // A batch of threads at a time (the candidates in order, or without a pre-filter every thread in
    // the order of the threads_latest index); the matcher reads each batch until one more than a page
    // has matched.
    const matched: { key: ThreadKey; messages: StoredMessage[] }[] = [];
    let from = after;
    for (let start = 0; matched.length <= limit; start += SEARCH_BATCH) {
      const batch = ordered
        ? ordered.slice(start, start + SEARCH_BATCH)
        : await this.#threadsAfter(from, SEARCH_BATCH);
      if (batch.length === 0) break;
      from = batch.at(-1) as ThreadKey;
      const byThread = new Map<string, StoredMessage[]>(batch.map((key) => [key[1], []]));
      for (const message of await this.#loadMessages(batch.map((key) => key[1]))) {
        byThread.get(message.thread_id)?.push(message);
      }
      for (const key of batch) {
        const list = byThread.get(key[1]) ?? [];
        if (!compiled.matchesThread(list.map(indexMessage))) continue;
        matched.push({ key, messages: list.sort(compareMessages) });
        if (matched.length > limit) break;
      }
      if (batch.length < SEARCH_BATCH) break;
    }
    const items = matched.slice(0, limit);
    const hasMore = matched.length > limit;
    const last = items.at(-1);
    return {
      items: items.map((thread) => this.#view(thread.key[1], thread.messages, { bodies: false })),
      pagination: { next_cursor: hasMore && last ? encodeCursor(last.key) : null, has_more: hasMore, limit },
    };
  }

  /** Up to `take` threads after `after`, newest first, as `[latest_ms, id]` (the index's order). */
  async #threadsAfter(after: ThreadKey | null, take: number): Promise<ThreadKey[]> {
    let query = this.#db
      .selectFrom('threads')
      .select(['latest_ms', 'id'])
      .where('mailbox_id', '=', this.mailbox.id);
    // Row-value comparison is standard SQL (SQLite and PostgreSQL both have it, and use the index).
    if (after)
      query = query.where(
        sql<SqlBool>`(${sql.ref('latest_ms')}, ${sql.ref('id')}) < (${after[0]}, ${after[1]})`,
      );
    const rows = await query.orderBy('latest_ms', 'desc').orderBy('id', 'desc').limit(take).execute();
    // PostgreSQL answers a bigint as text.
    return rows.map((row) => [Number(row.latest_ms), row.id]);
  }

  async getThread(threadId: string, options: ViewOptions): Promise<EmailThread | null> {
    if (!(await this.#threadExists(threadId))) return null;
    const messages = await this.#loadMessages(threadId);
    return this.#view(threadId, messages.sort(compareMessages), options);
  }

  async listLabels(): Promise<EmailLabel[]> {
    const user = await this.#userLabels();
    return [
      ...SYSTEM_LABELS.map((label) => ({ id: label.id, name: label.name, type: 'system' })),
      ...user.map((label) => ({ id: label.id, name: label.name, type: 'user' })),
    ];
  }

  /** Whether a label id exists in this mailbox (system labels always do). */
  async #unknownLabels(ids: readonly string[]): Promise<string[]> {
    const custom = ids.filter((id) => !SYSTEM_LABEL_IDS.has(id));
    if (custom.length === 0) return [];
    const known = new Set((await this.#userLabels()).map((label) => label.id));
    return custom.filter((id) => !known.has(id));
  }

  async modifyThreadLabels(threadId: string, change: LabelChange): Promise<boolean> {
    if (!(await this.#threadExists(threadId))) return false;
    for (const side of ['add', 'remove'] as const) {
      const unknown = await this.#unknownLabels(change[side]);
      // An unknown id in a body answers as one in a path does (docs/ids-and-visibility.md).
      if (unknown[0] !== undefined) throw notFound('label', unknown[0]);
    }
    const mailboxId = this.mailbox.id;
    this.#changed(threadId);
    const ids = (
      await this.#db
        .selectFrom('messages')
        .select('id')
        .where('mailbox_id', '=', mailboxId)
        .where('thread_id', '=', threadId)
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) return true;
    if (change.remove.length > 0) {
      await this.#db
        .deleteFrom('message_labels')
        .where('mailbox_id', '=', mailboxId)
        .where('message_id', 'in', ids)
        .where('label_id', 'in', [...change.remove])
        .execute();
    }
    const rows = ids.flatMap((message_id) =>
      [...new Set(change.add)].map((label_id) => ({ mailbox_id: mailboxId, message_id, label_id })),
    );
    if (rows.length > 0) {
      await this.#db
        .insertInto('message_labels')
        .values(rows)
        .onConflict((conflict) => conflict.columns(['mailbox_id', 'message_id', 'label_id']).doNothing())
        .execute();
    }
    return true;
  }

  async #freshId(): Promise<string> {
    // A collision among 2^60 ids is all but impossible; checking keeps the mailbox consistent anyway.
    for (;;) {
      const id = newHexId();
      const [thread, message] = await Promise.all([
        this.#db
          .selectFrom('threads')
          .select('id')
          .where('mailbox_id', '=', this.mailbox.id)
          .where('id', '=', id)
          .executeTakeFirst(),
        this.#db
          .selectFrom('messages')
          .select('id')
          .where('mailbox_id', '=', this.mailbox.id)
          .where('id', '=', id)
          .executeTakeFirst(),
      ]);
      if (!thread && !message) return id;
    }
  }

  /** The mailbox owner as an address, named as the user is. */
  async #owner(): Promise<Address> {
    const owner = await this.#db
      .selectFrom('users')
      .select('display_name')
      .where('id', '=', this.mailbox.user_id)
      .executeTakeFirst();
    return { email: this.mailbox.email_address, name: owner?.display_name ?? null };
  }

  /**
   * Writes a message into a thread (a new one when `threadId` is null: Gmail gives a thread's first
   * message the thread's own id). Null when the thread does not exist.
   */
  async #insertMessage(
    threadId: string | null,
    message: NewMessage,
    at: Date,
  ): Promise<{ threadId: string; messageId: string } | null> {
    const unknown = await this.#unknownLabels(message.labels);
    if (unknown[0] !== undefined) throw notFound('label', unknown[0]);
    const mailboxId = this.mailbox.id;
    let targetThread: string;
    let messageId: string;
    if (threadId === null) {
      targetThread = await this.#freshId();
      messageId = targetThread;
      await this.#db
        .insertInto('threads')
        .values({ mailbox_id: mailboxId, id: targetThread, created_at: at.toISOString() })
        .execute();
    } else {
      if (!(await this.#threadExists(threadId))) return null;
      targetThread = threadId;
      messageId = await this.#freshId();
    }
    const json = (addresses: Address[]) =>
      JSON.stringify(addresses.map((address) => ({ email: address.email, name: address.name })));
    await this.#db
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
      await this.#db
        .insertInto('message_labels')
        .values(labels.map((label_id) => ({ mailbox_id: mailboxId, message_id: messageId, label_id })))
        .execute();
    }
    if (message.date !== null) await this.#bumpLatest(targetThread, Date.parse(message.date));
    this.#changed(targetThread);
    return { threadId: targetThread, messageId };
  }

  /** Tells the change feed (the console's live pages) that a thread changed, once this write commits. */
  #changed(threadId: string): void {
    noteChange(this.#db, { topic: 'thread', thread_id: threadId });
  }

  /** A thread's sort key moves forward to a newer message's time. */
  async #bumpLatest(threadId: string, time: number): Promise<void> {
    await this.#db
      .updateTable('threads')
      .set({ latest_ms: time })
      .where('mailbox_id', '=', this.mailbox.id)
      .where('id', '=', threadId)
      .where('latest_ms', '<', time)
      .execute();
  }

  /** A thread's sort key read again from its messages (after one is removed). */
  async #recomputeLatest(threadId: string): Promise<void> {
    const dates = await this.#db
      .selectFrom('messages')
      .select('date')
      .where('mailbox_id', '=', this.mailbox.id)
      .where('thread_id', '=', threadId)
      .execute();
    await this.#db
      .updateTable('threads')
      .set({ latest_ms: latestTime(dates.map((row) => row.date)) })
      .where('mailbox_id', '=', this.mailbox.id)
      .where('id', '=', threadId)
      .execute();
  }

  async #threadSubject(threadId: string): Promise<string | null> {
    const first = (await this.#loadMessages(threadId)).sort(compareMessages)[0];
    return first?.subject ?? null;
  }

  /**
   * Mail arriving from outside: appends a message to a thread (a new one when `threadId` is null) and
   * answers the thread and the message without bodies. Null when the thread does not exist. Mail that
   * lands in the Inbox ends the thread's snooze, as a reply does in Gmail.
   */
  async deliver(threadId: string | null, incoming: IncomingMessage, at: Date): Promise<Delivered | null> {
    if (threadId !== null && !(await this.#threadExists(threadId))) return null;
    const labels = [...new Set(incoming.labels ?? DEFAULT_INBOUND_LABELS)];
    const subject =
      incoming.subject !== undefined
        ? incoming.subject
        : threadId === null
          ? null
          : replySubject(await this.#threadSubject(threadId));
    const bodyText = incoming.body_text ?? null;
    const bodyHtml = incoming.body_html ?? null;
    const written = await this.#insertMessage(
      threadId,
      {
        from: incoming.from,
        to: incoming.to ?? [await this.#owner()],
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
    if (labels.includes('INBOX')) await this.#endSnooze(written.threadId);
    const messages = (await this.#loadMessages(written.threadId)).sort(compareMessages);
    const message = messages.find((candidate) => candidate.id === written.messageId) as StoredMessage;
    return {
      thread: this.#view(written.threadId, messages, { bodies: false }),
      message: messageView(message, { bodies: false }),
    };
  }

  async threadMessages(threadId: string): Promise<ThreadMessages | null> {
    if (!(await this.#threadExists(threadId))) return null;
    const messages = (await this.#loadMessages(threadId)).sort(compareMessages);
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

  async #outgoing(message: OutgoingMessage, labels: string[], at: Date): Promise<NewMessage> {
    return {
      from: await this.#owner(),
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

  async send(threadId: string | null, message: OutgoingMessage, at: Date): Promise<SentMessageIds | null> {
    const written = await this.#insertMessage(threadId, await this.#outgoing(message, ['SENT'], at), at);
    return written && { message_id: written.messageId, thread_id: written.threadId };
  }

  async createDraft(threadId: string | null, message: OutgoingMessage, at: Date): Promise<Draft | null> {
    const written = await this.#insertMessage(threadId, await this.#outgoing(message, ['DRAFT'], at), at);
    if (!written) return null;
    // Gmail's draft ids are `r` and digits; ours are `r` and 16 hex digits, never a message id.
    const draftId = `r${newHexId()}`;
    await this.#db
      .insertInto('drafts')
      .values({
        mailbox_id: this.mailbox.id,
        id: draftId,
        message_id: written.messageId,
        updated_at: at.toISOString(),
      })
      .execute();
    return (await this.#findDraft(draftId)) as Draft;
  }

  #selectDrafts() {
    return this.#db
      .selectFrom('drafts')
      .innerJoin('messages', (join) =>
        join
          .onRef('messages.mailbox_id', '=', 'drafts.mailbox_id')
          .onRef('messages.id', '=', 'drafts.message_id'),
      )
      .select([
        'drafts.id as draft_id',
        'drafts.updated_at',
        'messages.id as message_id',
        'messages.thread_id',
        'messages.subject',
        'messages.snippet',
        'messages.to',
        'messages.cc',
      ])
      .where('drafts.mailbox_id', '=', this.mailbox.id);
  }

  #draftView(row: {
    draft_id: string;
    updated_at: string;
    message_id: string;
    thread_id: string;
    subject: string | null;
    snippet: string | null;
    to: string;
    cc: string;
  }): Draft {
    return {
      draft_id: row.draft_id,
      message_id: row.message_id,
      thread_id: row.thread_id,
      subject: row.subject,
      snippet: row.snippet,
      to: parseAddresses(row.to).map((address) => address.email),
      cc: parseAddresses(row.cc).map((address) => address.email),
      date_modified: row.updated_at,
    };
  }

  async #findDraft(draftId: string): Promise<Draft | null> {
    const row = await this.#selectDrafts().where('drafts.id', '=', draftId).executeTakeFirst();
    return row ? this.#draftView(row) : null;
  }

  async listDrafts(page: PageRequest): Promise<Page<Draft>> {
    const result = await paginate(
      page,
      ['drafts.updated_at', 'drafts.id'],
      (after, take) => {
        let query = this.#selectDrafts();
        if (after) query = query.where(after);
        return query.orderBy('drafts.updated_at').orderBy('drafts.id').limit(take).execute();
      },
      (row) => [row.updated_at, row.draft_id],
    );
    return { items: result.items.map((row) => this.#draftView(row)), pagination: result.pagination };
  }

  async sendDraft(draftId: string, at: Date): Promise<SentMessageIds | null> {
    const draft = await this.#findDraft(draftId);
    if (!draft?.message_id || !draft.thread_id) return null;
    const mailboxId = this.mailbox.id;
    // The draft's message becomes the sent one: same id, sent now, SENT instead of DRAFT.
    await this.#db
      .deleteFrom('drafts')
      .where('mailbox_id', '=', mailboxId)
      .where('id', '=', draftId)
      .execute();
    await this.#db
      .updateTable('messages')
      .set({ date: at.toISOString() })
      .where('mailbox_id', '=', mailboxId)
      .where('id', '=', draft.message_id)
      .execute();
    await this.#bumpLatest(draft.thread_id, at.getTime());
    this.#changed(draft.thread_id);
    await this.#db
      .deleteFrom('message_labels')
      .where('mailbox_id', '=', mailboxId)
      .where('message_id', '=', draft.message_id)
      .where('label_id', '=', 'DRAFT')
      .execute();
    await this.#db
      .insertInto('message_labels')
      .values({ mailbox_id: mailboxId, message_id: draft.message_id, label_id: 'SENT' })
      .onConflict((conflict) => conflict.columns(['mailbox_id', 'message_id', 'label_id']).doNothing())
      .execute();
    return { message_id: draft.message_id, thread_id: draft.thread_id };
  }

  async deleteDraft(draftId: string): Promise<boolean> {
    const draft = await this.#findDraft(draftId);
    if (!draft?.message_id || !draft.thread_id) return false;
    const mailboxId = this.mailbox.id;
    // Its message goes with it (labels and the draft row cascade); so does a thread left empty.
    await this.#db
      .deleteFrom('drafts')
      .where('mailbox_id', '=', mailboxId)
      .where('id', '=', draftId)
      .execute();
    await this.#db
      .deleteFrom('message_labels')
      .where('mailbox_id', '=', mailboxId)
      .where('message_id', '=', draft.message_id)
      .execute();
    await this.#db
      .deleteFrom('messages')
      .where('mailbox_id', '=', mailboxId)
      .where('id', '=', draft.message_id)
      .execute();
    this.#changed(draft.thread_id);
    const left = await this.#db
      .selectFrom('messages')
      .select('id')
      .where('mailbox_id', '=', mailboxId)
      .where('thread_id', '=', draft.thread_id)
      .executeTakeFirst();
    if (!left) {
      await this.#db
        .deleteFrom('threads')
        .where('mailbox_id', '=', mailboxId)
        .where('id', '=', draft.thread_id)
        .execute();
    } else {
      await this.#recomputeLatest(draft.thread_id);
    }
    return true;
  }

  async snooze(threadId: string, until: Date): Promise<boolean> {
    if (!(await this.modifyThreadLabels(threadId, { add: [], remove: ['INBOX'] }))) return false;
    await this.#db
      .insertInto('snoozes')
      .values({ mailbox_id: this.mailbox.id, thread_id: threadId, until_ms: until.getTime() })
      .onConflict((conflict) =>
        conflict.columns(['mailbox_id', 'thread_id']).doUpdateSet({ until_ms: until.getTime() }),
      )
      .execute();
    return true;
  }

  async #endSnooze(threadId: string): Promise<void> {
    await this.#db
      .deleteFrom('snoozes')
      .where('mailbox_id', '=', this.mailbox.id)
      .where('thread_id', '=', threadId)
      .execute();
  }

  async wakeSnoozed(now: Date): Promise<void> {
    const due = await this.#db
      .selectFrom('snoozes')
      .select('thread_id')
      .where('mailbox_id', '=', this.mailbox.id)
      .where('until_ms', '<=', now.getTime())
      .execute();
    for (const { thread_id } of due) {
      await this.modifyThreadLabels(thread_id, { add: ['INBOX'], remove: [] });
      await this.#endSnooze(thread_id);
    }
  }
}
