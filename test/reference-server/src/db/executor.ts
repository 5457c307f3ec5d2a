// What every module below and above the storage line passes around: a database handle or an open
// transaction, the key of per-database memory, and which engine it is. A leaf: it imports nothing of
// the server's own.
import { type Kysely, PostgresAdapter, type Transaction } from 'kysely';
import type { DialectName } from './migrations/columns.ts';
import type { Database } from './schema.ts';

/** A database handle or an open transaction: domain functions take either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * One object per database, the same for its handle and every transaction on it: the key of the
 * in-process caches that must not leak between two databases served by one process (as in tests).
 */
export function databaseKey(executor: Executor): object {
  return executor.getExecutor().adapter;
}

/** A value kept per database (see `databaseKey`), made by `create` on first use. */
export function perDatabase<T>(create: () => T): (executor: Executor) => T {
  const values = new WeakMap<object, T>();
  return (executor) => {
    const key = databaseKey(executor);
    let value = values.get(key);
    if (value === undefined) {
      value = create();
      values.set(key, value);
    }
    return value;
  };
}

/**
 * SQLite caps the values bound in one statement (32,766): a statement over many rows takes them in
 * runs of this many (500 rows of the widest table stay well under the cap).
 */
const ROWS_PER_STATEMENT = 500;

/** `rows` in runs small enough for one statement each, with the index of each run's first row. */
export function* perStatement<T>(rows: readonly T[]): Generator<{ start: number; rows: T[] }> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    yield { start, rows: rows.slice(start, start + ROWS_PER_STATEMENT) };
  }
}

/**
 * Whether other processes may write to this database (PostgreSQL): what this process remembers of the
 * data (principals, whether anyone subscribes, rendered pages, running idempotency keys) may then be
 * stale, so such memory is kept only on a database this process owns (SQLite).
 */
export function isShared(executor: Executor): boolean {
  return executor.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Statements sent to each database so far, per database (see `databaseKey`): on PostgreSQL each is a
 * network round trip (`begin` and `commit` included). Tests and benchmarks read it to count what a
 * request costs (test/round-trips.test.ts); counting is one increment per statement.
 */
const statementCounters = new WeakMap<object, { count: number }>();

/** Where a database's opener counts what it sends (see `statementCount`). */
export function countStatements(executor: Executor, counter: { count: number }): void {
  statementCounters.set(databaseKey(executor), counter);
}

/** How many statements this database has been sent so far (by this process). */
export function statementCount(executor: Executor): number {
  return statementCounters.get(databaseKey(executor))?.count ?? 0;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** SQLite only: the whole database as bytes (sqlite3_serialize). */
  image?: () => Buffer;
}

export class DatabaseConfigError extends Error {
  override name = 'DatabaseConfigError';
}
