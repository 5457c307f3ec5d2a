// The server-owned mailbox: threads, messages and labels in the service's own database, searched with
// Gmail's syntax. It is also where mail "arrives" (the test-control endpoint delivers through it).
import { randomBytes } from 'node:crypto';
import {
  type EmailAddress,
  type EmailLabel,
  type EmailMessage,
  type EmailThread,
  PAGE_LIMIT_DEFAULT,
} from '@threadwork/shared/schemas';
import type { Executor } from '../../db/database.ts';
import { invalidField, ServiceError } from '../errors.ts';
import { encodeCursor, type Page, type PageRequest } from '../pagination.ts';
import { SYSTEM_LABEL_IDS, SYSTEM_LABELS } from '../system-labels.ts';
import type { LabelChange, MailboxProvider, MailboxRecord } from './provider.ts';
import { compileQuery, indexMessage, parseSearchQuery } from './search.ts';
import {
  compareMessages,
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
}

export interface Delivered {
  thread: EmailThread;
  message: EmailMessage;
}

const DEFAULT_INBOUND_LABELS = ['INBOX', 'UNREAD'];
const parseAddresses = (text: string) => JSON.parse(text) as EmailAddress[];

/** A Gmail-like raw id: 16 lowercase hex digits, the first not 0. */
export function newHexId(): string {
  const bytes = randomBytes(8);
  bytes[0] = ((bytes[0] as number) % 0xf0) + 0x10;
  return bytes.toString('hex');
}

/** Threads sort newest first by their latest dated message; undated threads last. */
type ThreadKey = [number, string];

function compareKeysDescending(a: ThreadKey, b: ThreadKey): number {
  if (a[0] !== b[0]) return b[0] - a[0];
  return a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0;
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

  /** Messages of the mailbox (or of one thread) with their labels, in no particular order. */
  async #loadMessages(threadId?: string): Promise<StoredMessage[]> {
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
      ])
      .where('mailbox_id', '=', mailboxId);
    let labels = this.#db
      .selectFrom('message_labels')
      .innerJoin('messages', (join) =>
        join
          .onRef('messages.mailbox_id', '=', 'message_labels.mailbox_id')
          .onRef('messages.id', '=', 'message_labels.message_id'),
      )
      .select(['message_labels.message_id', 'message_labels.label_id'])
      .where('message_labels.mailbox_id', '=', mailboxId);
    if (threadId !== undefined) {
      messages = messages.where('thread_id', '=', threadId);
      labels = labels.where('messages.thread_id', '=', threadId);
    }
    const [rows, labelRows] = await Promise.all([
      messages.execute(),
      labels.orderBy('message_labels.label_id').execute(),
    ]);
    const labelsOf = new Map<string, string[]>();
    for (const row of labelRows) {
      const list = labelsOf.get(row.message_id);
      if (list) list.push(row.label_id);
      else labelsOf.set(row.message_id, [row.label_id]);
    }
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
    const [messages, labels] = await Promise.all([this.#loadMessages(), this.#userLabels()]);
    const compiled = compileQuery(root, { now, ownerEmail: this.mailbox.email_address, labels });

    const byThread = new Map<string, StoredMessage[]>();
    for (const message of messages) {
      const list = byThread.get(message.thread_id);
      if (list) list.push(message);
      else byThread.set(message.thread_id, [message]);
    }
    const matched: { key: ThreadKey; messages: StoredMessage[] }[] = [];
    for (const [threadId, list] of byThread) {
      if (!compiled.matchesThread(list.map(indexMessage))) continue;
      list.sort(compareMessages);
      const latest = list.findLast((message) => message.date !== null)?.date;
      const key: ThreadKey = [latest ? Date.parse(latest) : -1, threadId];
      if (after && compareKeysDescending(key, after) <= 0) continue;
      matched.push({ key, messages: list });
    }
    matched.sort((a, b) => compareKeysDescending(a.key, b.key));
    const items = matched.slice(0, limit);
    const hasMore = matched.length > limit;
    const last = items.at(-1);
    return {
      items: items.map((thread) => this.#view(thread.key[1], thread.messages, { bodies: false })),
      pagination: { next_cursor: hasMore && last ? encodeCursor(last.key) : null, has_more: hasMore, limit },
    };
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
    const unknown = await this.#unknownLabels(change.add);
    if (unknown.length > 0) throw invalidField('add', `unknown label ${unknown.join(', ')}`);
    const mailboxId = this.mailbox.id;
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

  /**
   * Mail arriving from outside: appends a message to a thread (a new one when `threadId` is null) and
   * answers the thread and the message without bodies. Null when the thread does not exist.
   */
  async deliver(threadId: string | null, incoming: IncomingMessage, at: Date): Promise<Delivered | null> {
    const labels = [...new Set(incoming.labels ?? DEFAULT_INBOUND_LABELS)];
    const unknown = await this.#unknownLabels(labels);
    if (unknown.length > 0) throw invalidField('message.labels', `unknown label ${unknown.join(', ')}`);

    const mailboxId = this.mailbox.id;
    let subject = incoming.subject;
    let targetThread: string;
    let messageId: string;
    if (threadId === null) {
      // Gmail gives a thread's first message the thread's own id.
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
      if (subject === undefined) {
        const first = (await this.#loadMessages(threadId)).sort(compareMessages)[0];
        const original = first?.subject ?? null;
        subject = original === null || /^re:/i.test(original) ? original : `Re: ${original}`;
      }
    }

    const bodyText = incoming.body_text ?? null;
    const bodyHtml = incoming.body_html ?? null;
    const owner = await this.#db
      .selectFrom('users')
      .select('display_name')
      .where('id', '=', this.mailbox.user_id)
      .executeTakeFirst();
    await this.#db
      .insertInto('messages')
      .values({
        mailbox_id: mailboxId,
        id: messageId,
        thread_id: targetThread,
        subject: subject ?? null,
        from_email: incoming.from.email,
        from_name: incoming.from.name,
        to: JSON.stringify(
          incoming.to ?? [{ email: this.mailbox.email_address, name: owner?.display_name ?? null }],
        ),
        cc: JSON.stringify(incoming.cc ?? []),
        date: incoming.date === undefined ? at.toISOString() : incoming.date,
        snippet: snippetOf(bodyText, bodyHtml),
        body_text: bodyText,
        body_html: bodyHtml,
        attachment_count: incoming.attachment_count ?? 0,
      })
      .execute();
    if (labels.length > 0) {
      await this.#db
        .insertInto('message_labels')
        .values(labels.map((label_id) => ({ mailbox_id: mailboxId, message_id: messageId, label_id })))
        .execute();
    }

    const messages = (await this.#loadMessages(targetThread)).sort(compareMessages);
    const message = messages.find((candidate) => candidate.id === messageId) as StoredMessage;
    return {
      thread: this.#view(targetThread, messages, { bodies: false }),
      message: messageView(message, { bodies: false }),
    };
  }
}
