import { PAGE_LIMIT_DEFAULT, type PaginationMeta, type PaginationQuery } from '@threadwork/shared/schemas';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { ServiceError } from './errors.ts';

/** The values of a row's sort key, in sort order; the last one is always a unique id. */
export type CursorKey = readonly (string | number)[];

/** What a list endpoint's query asks of a page (the shared `PaginationQuery`; domain callers may omit both). */
export type PageRequest = Partial<PaginationQuery>;

/** `meta.pagination` of a list answer. */
export type Pagination = PaginationMeta;

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The cursor is opaque to clients: anything we did not issue is a validation error on `cursor`. */
export function decodeCursor(cursor: string, arity: number): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid =
    Array.isArray(key) &&
    key.length === arity &&
    key.every((part) => typeof part === 'string' || typeof part === 'number');
  if (!valid) {
    throw new ServiceError('validation_error', 'cursor: not a cursor this server issued', [
      { path: 'cursor', message: 'not a cursor this server issued' },
    ]);
  }
  return key as CursorKey;
}

/**
 * `(col1, col2, …) > (v1, v2, …)`: rows strictly after the cursor in ascending key order. Row-value
 * comparison is standard SQL (SQLite and PostgreSQL both have it).
 */
export function afterKey(columns: readonly string[], key: CursorKey): RawBuilder<SqlBool> {
  const refs = sql.join(columns.map((column) => sql.ref(column)));
  const values = sql.join(key.map((value) => sql`${value}`));
  return sql<SqlBool>`(${refs}) > (${values})`;
}

/**
 * Keyset pagination: `fetch` returns up to `take` rows in ascending key order, starting after `after`
 * (null = from the start); one extra row is asked for to learn whether more follow.
 */
export async function paginate<Row>(
  page: PageRequest,
  sortColumns: readonly string[],
  fetch: (after: RawBuilder<SqlBool> | null, take: number) => Promise<Row[]>,
  keyOf: (row: Row) => CursorKey,
): Promise<Page<Row>> {
  const limit = page.limit ?? PAGE_LIMIT_DEFAULT;
  const after = page.cursor ? afterKey(sortColumns, decodeCursor(page.cursor, sortColumns.length)) : null;
  const rows = await fetch(after, limit + 1);
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return {
    items,
    pagination: {
      next_cursor: hasMore && last ? encodeCursor(keyOf(last)) : null,
      has_more: hasMore,
      limit,
    },
  };
}
