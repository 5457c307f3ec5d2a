// Search: a page of threads matching a query in Gmail's syntax, newest first.
import { type EmailThread, PAGE_LIMIT_DEFAULT } from '@threadwork/shared/schemas';
import { type SqlBool, SqliteAdapter, sql } from 'kysely';
import { ServiceError } from '../../domain/errors.ts';
import { compileQuery, indexMessage, labelResolver, parseSearchQuery } from '../../domain/mailbox/search.ts';
import { compareMessages, type StoredMessage } from '../../domain/mailbox/threads.ts';
import { encodeCursor, type Page, type PageRequest } from '../../domain/pagination.ts';
import { type LocalMailbox, view } from './context.ts';
import { userLabels } from './labels.ts';
import { loadMessages } from './messages.ts';
import { prefilterOf } from './prefilter.ts';

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

export async function searchThreads(
  ctx: LocalMailbox,
  query: string,
  page: PageRequest,
  now: Date,
): Promise<Page<EmailThread>> {
  const root = parseSearchQuery(query);
  const after = page.cursor === undefined ? null : decodeThreadCursor(page.cursor);
  const limit = page.limit ?? PAGE_LIMIT_DEFAULT;
  const labels = await userLabels(ctx);
  const context = { now, ownerEmail: ctx.mailbox.email_address, labels };
  const prefilter = prefilterOf(root, {
    mailboxId: ctx.mailbox.id,
    // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE for that.
    like: ctx.db.getExecutor().adapter instanceof SqliteAdapter ? 'like' : 'ilike',
    owner: ctx.mailbox.email_address.toLowerCase(),
    resolve: labelResolver(labels),
  });
  // One pass of the pre-filter over the mailbox names the candidate threads with their sort keys;
  // only they are read, newest first.
  let ordered: ThreadKey[] | null = null;
  if (prefilter !== true) {
    const rows =
      prefilter === false
        ? []
        : await ctx.db
            .selectFrom('messages')
            .innerJoin('threads', (join) =>
              join
                .onRef('threads.mailbox_id', '=', 'messages.mailbox_id')
                .onRef('threads.id', '=', 'messages.thread_id'),
            )
            .select(['threads.id', 'threads.latest_ms'])
            .distinct()
            .where('messages.mailbox_id', '=', ctx.mailbox.id)
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
      : await threadsAfter(ctx, from, SEARCH_BATCH);
    if (batch.length === 0) break;
    from = batch.at(-1) as ThreadKey;
    const byThread = new Map<string, StoredMessage[]>(batch.map((key) => [key[1], []]));
    for (const message of await loadMessages(
      ctx,
      batch.map((key) => key[1]),
    )) {
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
    items: items.map((thread) => view(ctx, thread.key[1], thread.messages, { bodies: false })),
    pagination: { next_cursor: hasMore && last ? encodeCursor(last.key) : null, has_more: hasMore, limit },
  };
}

/** Up to `take` threads after `after`, newest first, as `[latest_ms, id]` (the index's order). */
async function threadsAfter(ctx: LocalMailbox, after: ThreadKey | null, take: number): Promise<ThreadKey[]> {
  let query = ctx.db
    .selectFrom('threads')
    .select(['latest_ms', 'id'])
    .where('mailbox_id', '=', ctx.mailbox.id);
  // Row-value comparison is standard SQL (SQLite and PostgreSQL both have it, and use the index).
  if (after)
    query = query.where(
      sql<SqlBool>`(${sql.ref('latest_ms')}, ${sql.ref('id')}) < (${after[0]}, ${after[1]})`,
    );
  const rows = await query.orderBy('latest_ms', 'desc').orderBy('id', 'desc').limit(take).execute();
  // PostgreSQL answers a bigint as text.
  return rows.map((row) => [Number(row.latest_ms), row.id]);
}
