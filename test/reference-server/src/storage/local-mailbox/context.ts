// What every part of the local mailbox shares: the database and the mailbox it serves, and small helpers.

import { randomBytes } from 'node:crypto';
import type { EmailAddress, EmailThread } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { noteChange } from '../../domain/events/feed.ts';
import type { MailboxRecord } from '../../domain/mailbox/provider.ts';
import { type StoredMessage, threadView, type ViewOptions } from '../../domain/mailbox/threads.ts';

/** One mailbox in the service's own database. */
export interface LocalMailbox {
  db: Executor;
  mailbox: MailboxRecord;
}

export const parseAddresses = (text: string | null) =>
  text === null ? [] : (JSON.parse(text) as EmailAddress[]);

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
export function padded(ids: readonly string[]): string[] {
  let size = 8;
  while (size < ids.length) size *= 2;
  const last = ids.at(-1);
  return last === undefined ? [...ids] : [...ids, ...Array<string>(size - ids.length).fill(last)];
}

export async function threadExists(ctx: LocalMailbox, threadId: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('threads')
    .select('id')
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('id', '=', threadId)
    .executeTakeFirst();
  return row !== undefined;
}

export function view(
  ctx: LocalMailbox,
  threadId: string,
  messages: readonly StoredMessage[],
  options: ViewOptions,
): EmailThread {
  return threadView(
    { providerId: ctx.mailbox.provider_id, ownerEmail: ctx.mailbox.email_address, threadId, messages },
    options,
  );
}

/** Tells the change feed (the console's live pages) that a thread changed, once this write commits. */
export function changed(ctx: LocalMailbox, threadId: string): void {
  noteChange(ctx.db, { topic: 'thread', thread_id: threadId });
}
