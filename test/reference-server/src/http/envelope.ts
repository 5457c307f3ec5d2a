import type { ErrorCode } from '@threadwork/shared/schemas';
import type { FastifyReply } from 'fastify';
import { cachesUsable, caughtUp, changeCount } from '../db/changes.ts';
import { type Executor, perDatabase } from '../db/executor.ts';
import { groupCommit } from '../db/transaction.ts';
import type { Page, Pagination } from '../domain/pagination.ts';

/** The error envelope of v2 (and v1): `{ error: { code, message, request_id, details? } }`. */
export function errorEnvelope(
  requestId: string,
  code: ErrorCode,
  message: string,
  details?: unknown,
): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = { code, message, request_id: requestId };
  if (details !== undefined) error['details'] = details;
  return { error };
}

/** The v2 success envelope: `{ data, meta: { request_id, pagination? } }`, status 200. */
export function ok(reply: FastifyReply, data: unknown, pagination?: Pagination): FastifyReply {
  const meta = pagination ? { request_id: reply.request.id, pagination } : { request_id: reply.request.id };
  return reply.code(200).send({ data, meta });
}

// Pages read again and again (a list's tasks, polled by every client of a board) are kept rendered,
// as JSON text, until the database is next written: any write, to anything, makes every kept page
// stale, so a kept page is always exactly what reading again would give. Bounded in count and size.
// On SQLite the group commit counts the writes; on PostgreSQL, where other processes write too, the
// count of changes this process knows of (its own, and other processes' as the data version it reads
// tells: db/changes.ts), and nothing is kept while it may miss one.
const MAX_PAGES = 64;
const MAX_PAGE_CHARS = 256 * 1024;

interface RenderedPage {
  /** The database's write count when the page was read. */
  writeCount: number;
  data: string;
  pagination: string;
}

const renderedPagesOf = perDatabase(() => new Map<string, RenderedPage>());

/**
 * A paged read whose answers are kept, rendered, while the database is unchanged. The cache builds
 * its own key from the reader's name and everything `read` is given (the caller and the parsed query),
 * and `read` is given nothing else: a page can only depend on what its key names.
 *
 * ```ts
 * const tasksPage = keptPages('tasks', (db, userId, query: ListTasksQuery) => listTasks(db, userId, …));
 * app.get('/tasks', …, (request, reply) => tasksPage(reply, db, userId, query));
 * ```
 */
export function keptPages<Query, T>(
  name: string,
  read: (db: Executor, userId: string, query: Query) => Promise<Page<T>>,
): (reply: FastifyReply, db: Executor, userId: string, query: Query) => Promise<FastifyReply> {
  return (reply, db, userId, query) =>
    okPage(reply, db, JSON.stringify([name, userId, query]), () => read(db, userId, query));
}

/** `ok` for a page, kept under `key` while the database is unchanged. */
async function okPage<T>(
  reply: FastifyReply,
  db: Executor,
  key: string,
  read: () => Promise<Page<T>>,
): Promise<FastifyReply> {
  const group = groupCommit(db);
  if (group === undefined && !cachesUsable(db)) {
    const page = await read();
    return ok(reply, page.items, page.pagination);
  }
  const writes = () => group?.writeCount ?? changeCount(db, 'data');
  const pages = renderedPagesOf(db);
  let rendered = pages.get(key);
  // On PostgreSQL, a kept page is compared once every change committed before the request is heard of.
  if (rendered !== undefined && group === undefined && !(await caughtUp(db, reply.request))) {
    rendered = undefined;
  }
  if (rendered === undefined || rendered.writeCount !== writes()) {
    const writeCount = writes();
    const page = await read();
    rendered = { writeCount, data: JSON.stringify(page.items), pagination: JSON.stringify(page.pagination) };
    pages.delete(key);
    if (rendered.data.length <= MAX_PAGE_CHARS) {
      if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
      pages.set(key, rendered);
    }
  }
  // The same text `ok` sends: `{ data, meta: { request_id, pagination } }`.
  const body = `{"data":${rendered.data},"meta":{"request_id":${JSON.stringify(reply.request.id)},"pagination":${rendered.pagination}}}`;
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}
