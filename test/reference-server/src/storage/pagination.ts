// Keyset pagination in SQL: a page's rows are those strictly after the cursor's key, in ascending key
// order, one extra asked for to learn whether more follow. The cursor itself, and what a page is, are
// the API's (domain/pagination.ts).
import { PAGE_LIMIT_DEFAULT } from '@threadwork/shared/schemas';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  type CursorKey,
  decodeCursor,
  encodeCursor,
  type Page,
  type PageRequest,
} from '../domain/pagination.ts';

/**
 * `(col1, col2, …) > (v1, v2, …)`: rows strictly after the cursor in ascending key order. Row-value
 * comparison is standard SQL (SQLite and PostgreSQL both have it).
 */
function afterKey(columns: readonly string[], key: CursorKey): RawBuilder<SqlBool> {
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
