// The one place that knows which SQL engine runs underneath. Routes and domain code see only
// `Kysely<Database>`: the same code runs on embedded SQLite (one process owns the file) and on
// PostgreSQL (`DATABASE_URL`, shared by any number of server processes; see docs/postgresql.md).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, sql, type Transaction } from 'kysely';
import { Migrator } from 'kysely/migration';
import { listenForChanges, noteChange } from './changes.ts';
import {
  COMMIT,
  deferredCommit,
  finishDeferred,
  notPreparable,
  preparedStatements,
  withLiterals,
} from './deferred-commit.ts';
import { type GroupCommit, GroupCommitSqliteDialect, groupCommitOf } from './group-commit.ts';
import type { DialectName } from './migrations/columns.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type { DialectName } from './migrations/columns.ts';

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

/** The group commit of a SQLite database (see group-commit.ts); undefined on other engines. */
export function groupCommit(executor: Executor): GroupCommit | undefined {
  return groupCommitOf(executor.getExecutor().adapter);
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

/** How many statements this database has been sent so far (by this process). */
export function statementCount(executor: Executor): number {
  return statementCounters.get(databaseKey(executor))?.count ?? 0;
}

/** How often a transaction that lost a race (see `isRaceLost`) is run again before it fails. */
const MAX_TRANSACTION_RUNS = 5;

/**
 * The advisory lock (an arbitrary constant of ours) that tells the two kinds of write transaction apart
 * on PostgreSQL: a row-locking one holds it shared, any other exclusively (see `transact`).
 */
export const WRITE_LOCK = 0x7477_7772; // "twwr"

/**
 * How a write transaction keeps out of other writers' way on PostgreSQL (docs/postgresql.md, "Writes"):
 * - `rows`: the work locks each row whose state it reads to decide, before reading it (`SELECT … FOR
 *   UPDATE`, or `FOR NO KEY UPDATE` for a user, team, board, field or subscription row), in one order:
 *   a user or a team, then a board, then a custom field, then lists, then tasks. So writes that touch
 *   different rows run at the same time, in one process and across processes. The task commands, and
 *   nearly every other write (lists, boards, field names, keys, subscriptions, mail, CRM), run so;
 * - `everything`: the work runs alone, as if no other write transaction ran: the writes that change
 *   who may see what, or what a `rows` write reads unlocked to decide (a custom field's options, an
 *   analysis writing AI field values, arriving mail).
 * Each takes the same advisory lock first, shared or exclusive, so an `everything` transaction waits
 * for every running `rows` one and they for it.
 */
export type Locking = 'rows' | 'everything';

/**
 * Runs `work` in one transaction, as if no other write transaction changed what it reads to decide. On
 * SQLite that is simply so (one process, one writer). On PostgreSQL, where other connections and other
 * processes write at once, the transaction first takes the write lock (see `Locking`), in the same
 * round trip as its `begin`; READ COMMITTED then reads the latest committed data at every statement,
 * so a row locked with `forUpdateOn` is read as it stands once the lock is held. A transaction that
 * lost a race (a deadlock, or a serialization failure; `raceLost` for one the work detects itself) is
 * run again, a bounded number of times. `work` must have no effect outside the transaction. `ahead`:
 * reads `work` will run, sent in the round trip of the `begin` (see `readAhead`).
 * (SERIALIZABLE with retries was tried first: on tables this small PostgreSQL's predicate locks
 * cover whole tables, so concurrent creates aborted each other until the retries ran out.)
 */
export async function transact<T>(
  db: Kysely<Database>,
  work: (tx: Transaction<Database>) => Promise<T>,
  locking: Locking = 'everything',
  ahead: readonly CompiledQuery[] = [],
): Promise<T> {
  if (!isShared(db)) return db.transaction().execute(work);
  const deferred = deferredCommit();
  // A request holding an Idempotency-Key: the transaction stays open for its answer (deferred-commit.ts).
  // A second write transaction of the same request commits the first, keeping the key's claim in a row
  // of its own, and runs as usual.
  if (deferred?.open !== undefined) {
    const keep = deferred.held === 'transaction' ? deferred.claim?.keep() : undefined;
    await finishDeferred(deferred, keep ?? sql`select 1`.compile(db));
    if (keep !== undefined) deferred.held = 'row';
  }
  const claim = deferred?.wanted && deferred.held === undefined ? deferred.claim : undefined;
  // One round trip with `begin` (see openPostgres): the lock, and then, under it, each in a statement of its own
  // and so with a fresh snapshot, the request's claim, what `readAtBegin` asked for, and the reads
  // sent `ahead` (each answered later from what this round trip brought back: see `readAhead`).
  const statements = [
    withLiterals({
      sql: `select ${locking === 'rows' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(${WRITE_LOCK})`,
      parameters: [],
    }),
    ...(claim?.statements ?? []),
    ...(beginReads.size === 0
      ? []
      : [
          withLiterals({
            sql: `select ${[...beginReads].map(([column, expression]) => `${expression} as "${column}"`).join(', ')}`,
            parameters: [],
          }),
        ]),
    ...ahead.map(withLiterals),
  ];
  const opening = sql.raw<{ rows: Record<string, unknown>[] }>(`${EACH}${statements.join(';')}`);
  const claimCount = claim?.statements.length ?? 0;
  const begin = async (tx: Transaction<Database>) => {
    const { rows: results } = await opening.execute(tx);
    claim?.check(results.slice(1, 1 + claimCount));
    let next = 1 + claimCount;
    if (beginReads.size > 0) beginReadsOf.set(tx, results[next++]?.rows[0] ?? {});
    if (ahead.length > 0) {
      readAheadOf.set(
        tx,
        new Map(ahead.map((query, index) => [aheadKey(query), results[next + index]?.rows ?? []])),
      );
    }
  };
  for (let run = 1; ; run++) {
    const tx = await db.startTransaction().execute();
    try {
      await begin(tx);
      if (claim !== undefined) deferred!.held = 'transaction';
      const result = await work(tx);
      if (deferred?.wanted) {
        // Left open for the request's answer, which commits it (deferred-commit.ts).
        deferred.open = tx;
        deferred.afterwards.push(() => noteChange(db, 'data'));
        return result;
      }
      // The commit, and the data version's move for other processes' caches (see COMMIT).
      await sql.raw(COMMIT).execute(tx);
      await tx.commit().execute();
      noteChange(db, 'data');
      return result;
    } catch (error) {
      // Rolled back, a claim goes with the transaction: the answer, if any, claims the key anew.
      if (deferred?.held === 'transaction') deferred.held = undefined;
      await tx
        .rollback()
        .execute()
        .catch(() => {});
      if (run >= MAX_TRANSACTION_RUNS || !isRaceLost(error)) {
        // Whether or not it committed, what this process's caches hold may be stale.
        noteChange(db, 'data');
        throw error;
      }
    }
  }
}

/** How a text starts whose result should be each of its statements' results (see openPostgres). */
const EACH = '/*each*/';

/** Per transaction: the reads sent ahead with its `begin`, by query, not yet taken (see `readAhead`). */
const readAheadOf = new WeakMap<Executor, Map<string, Record<string, unknown>[]>>();

const aheadKey = (query: CompiledQuery) => `${query.sql}\u0000${JSON.stringify(query.parameters)}`;

/**
 * The rows of `query` if it was sent ahead with this transaction's `begin` (the `ahead` of
 * `transact`), once: a query the work runs first then costs no round trip of its own. It was read
 * under the transaction's lock with a snapshot as fresh as the work's first statement would have had.
 */
export function readAhead(executor: Executor, query: CompiledQuery): Record<string, unknown>[] | undefined {
  const reads = readAheadOf.get(executor);
  if (reads === undefined) return undefined;
  const key = aheadKey(query);
  const rows = reads.get(key);
  reads.delete(key);
  return rows;
}

/** How a statement handed to `sendLater` starts on its way to the connection (see openPostgres). */
const SEND_LATER = '/*later*/';

/**
 * Inside a PostgreSQL transaction, holds `query` (a write whose outcome nothing reads) to travel in
 * front of the transaction's next statement, its commit included, in the same round trip: a write
 * under a row lock then costs the lock no round trip of its own. Statements of one text run one
 * after another, each with a fresh snapshot (READ COMMITTED), so one placed after a row lock reads
 * what that lock protects as it stands. Its failure fails that next statement, and so the
 * transaction. Answers false (nothing done) elsewhere: the caller then runs it at once.
 */
export async function sendLater(executor: Executor, query: CompiledQuery): Promise<boolean> {
  if (!executor.isTransaction || !isShared(executor)) return false;
  await sql.raw(`${SEND_LATER}${withLiterals(query)}`).execute(executor);
  return true;
}

/** Column name → SQL expression: read by every PostgreSQL write transaction once it holds its lock. */
const beginReads = new Map<string, string>();
const beginReadsOf = new WeakMap<Executor, Record<string, unknown>>();

/**
 * Asks every write transaction on PostgreSQL to read `expression` (SQL, no parameters) in the round
 * trip that begins it, right after taking its lock: for facts nearly every write needs and no cache
 * could keep exactly (whether anyone subscribes to events, say). Call at module load.
 */
export function readAtBegin(column: string, expression: string): void {
  beginReads.set(column, expression);
}

/** What `readAtBegin` read for this transaction (undefined outside one, and on SQLite). */
export function readAtBeginOf(tx: Executor): Record<string, unknown> | undefined {
  return beginReadsOf.get(tx);
}

/** An error that makes `transact` run the transaction again, as a deadlock would. */
export function raceLost(message: string): Error {
  return Object.assign(new Error(message), { code: '40001' });
}

/** serialization_failure, deadlock_detected (SQLSTATE 40001, 40P01). */
function isRaceLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** Resolves once every write made so far on this database has committed; null if none is waiting to. */
export function whenCommitted(executor: Executor): Promise<void> | null {
  return groupCommit(executor)?.whenCommitted() ?? null;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** SQLite only: the whole database as bytes (sqlite3_serialize). */
  image?: () => Buffer;
}

export interface OpenDatabaseOptions {
  /** SQLite file path or `:memory:`. */
  path: string;
  /** A `postgres://` URL selects PostgreSQL instead of `path`. */
  databaseUrl?: string | undefined;
  /** With `:memory:`: the file of an empty, migrated database to start from (see `ServerOptions`). */
  memoryTemplate?: string | undefined;
}

export class DatabaseConfigError extends Error {
  override name = 'DatabaseConfigError';
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const template = options.databaseUrl || options.path !== ':memory:' ? undefined : options.memoryTemplate;
  const image = template === undefined ? undefined : readTemplate(template);
  if (image !== undefined) {
    // From the template, migrating only confirms every migration has run (it is a third of the start-up
    // time otherwise). A template that will not open is only a spoilt cache: migrate and write it again.
    let fromImage: DatabaseHandle | undefined;
    try {
      fromImage = openSqlite(options.path, image);
      await migrateToLatest(fromImage);
      return fromImage;
    } catch {
      await fromImage?.close().catch(() => {});
    }
  }
  const handle = options.databaseUrl ? await openPostgres(options.databaseUrl) : openSqlite(options.path);
  try {
    await migrateToLatest(handle);
    if (template !== undefined) {
      await whenCommitted(handle.db);
      writeTemplate(template, handle.image?.());
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** The template's bytes, or undefined when there is none yet (or it cannot be read: it is only a cache). */
function readTemplate(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name, then renamed: a server starting meanwhile never reads half of it. */
function writeTemplate(path: string, bytes: Buffer | undefined): void {
  if (bytes === undefined) return;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch {
    // A cache that cannot be written costs the next start its migrations, nothing more.
  }
}

function openSqlite(path: string, image?: Buffer): DatabaseHandle {
  const inMemory = path === ':memory:';
  const filename = inMemory ? path : resolve(path);
  if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
  // An image opens as a private in-memory database holding a copy of it.
  const sqlite = image === undefined ? new SqliteDatabase(filename) : new SqliteDatabase(image);
  if (!inMemory) {
    // The server owns its database file: the first read takes a lock it keeps until it closes, so other
    // processes can open the file only after it stops. Every statement then skips taking and releasing
    // file locks, and, set before WAL is, the WAL index lives in heap memory rather than a shared file.
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.pragma('journal_mode = WAL');
  }
  // Commits reach the operating system (a killed or crashed server loses nothing) without waiting
  // for the disk: the WAL is not synced at checkpoints, so an operating-system crash or a power cut
  // may cost the last writes. That is the right trade for a reference server, whose data is a test
  // fixture; syncing cost 15–20 % of write throughput.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = ON');
  // Statement journals (kept while an insert checks its constraints and indexes) in memory, not in
  // temporary files: a third of the time of an insert.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('busy_timeout = 5000');
  const counter = { count: 0 };
  const db = new Kysely<Database>({
    dialect: new GroupCommitSqliteDialect(withStatementCache(sqlite, counter)),
  });
  statementCounters.set(databaseKey(db), counter);
  return { db, dialect: 'sqlite', close: () => db.destroy(), image: () => sqlite.serialize() };
}

/**
 * Kysely prepares every statement anew; preparing costs as much as running a typical query here, so
 * statements are kept by SQL text (a few hundred distinct texts at most). None is ever left busy: the
 * driver reads every result whole (it offers no streaming).
 */
function withStatementCache(sqlite: SqliteDatabase.Database, counter: { count: number }, capacity = 500) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    // Called once per statement run (see group-commit.ts), so it also counts them.
    prepare(text: string): SqliteDatabase.Statement {
      counter.count++;
      const cached = statements.get(text);
      if (cached !== undefined) return cached;
      const statement = sqlite.prepare(text);
      if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      statements.set(text, statement);
      return statement;
    },
    close(): void {
      statements.clear();
      sqlite.close();
    },
  };
}

/** Distinct statements a server process prepares on each PostgreSQL connection, at most. */
const MAX_NAMED_STATEMENTS = 1000;

/** Connections per server process: requests and the delivery worker share them. */
const POSTGRES_POOL_SIZE = 20;

async function openPostgres(url: string): Promise<DatabaseHandle> {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new DatabaseConfigError(
      `DATABASE_URL must be a postgres:// or postgresql:// URL, got "${url.replace(/\/\/[^@/]*@/, '//…@')}"`,
    );
  }
  // Loaded only here: a server on SQLite never pays for the driver.
  const { default: pg } = await import('pg');
  // Counts are bigint (int8) in PostgreSQL, which pg returns as text; every count here fits a double.
  // Set per pool, so that the process-wide parsers of any other pg user stay untouched.
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === pg.types.builtins.INT8 && format !== 'binary'
        ? Number
        : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  // As on SQLite (see openSqlite): a commit is acknowledged once PostgreSQL has it, without waiting for
  // its WAL to reach the disk. A killed server process loses nothing; a crash of PostgreSQL's machine
  // may cost the last fraction of a second of writes (never consistency). Waiting for the disk cost
  // five sixths of write throughput here. A URL that sets synchronous_commit itself keeps its choice.
  const options = /synchronous_commit/.test(url) ? {} : { options: '-c synchronous_commit=off' };
  const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_SIZE, types, ...options });
  // Statements with parameters run as named prepared statements: each connection parses and plans a
  // statement once, and later runs bind new values only (Kysely sends the same SQL text for the same
  // query). Names are per SQL text, the same on every connection; bounded, since `in` lists of every
  // length make new texts (those beyond the bound are parsed each time, as unnamed statements are).
  const names = new Map<string, string>();
  const counter = { count: 0 };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // A `begin` waits to travel with the transaction's first statement when that has no parameters (the
    // write lock, see `transact`): one round trip for both, answered with the statement's result.
    let beginWaiting = false;
    let commitSent = false;
    // Statements held by `sendLater`, sent in front of the next one (a rollback drops them).
    let later: string[] = [];
    const withLater = (text: string) => {
      if (later.length === 0) return text;
      const joined = `${later.join(';')};${text}`;
      later = [];
      return joined;
    };
    // Statements this connection has prepared by name (see `withLiterals`).
    const prepared = new Set<string>();
    const send = (text: unknown, values?: unknown, callback?: unknown) => {
      counter.count++;
      if (
        typeof text === 'string' &&
        (!Array.isArray(values) || values.length === 0) &&
        callback === undefined
      ) {
        return sendText(text);
      }
      if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
        return query(text, values, callback);
      }
      let name = names.get(text);
      if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
        name = `tw_${names.size}`;
        names.set(text, name);
      }
      return query(name === undefined ? { text, values } : { name, text, values }, callback);
    };
    // A text whose statements this connection has yet to prepare prepares them first, in the same round
    // trip, ahead of everything (so ahead of a `begin` too: a prepared statement outlives transactions).
    const sendText = async (text: string) => {
      const needed = preparedStatements(text, prepared);
      if (needed.length === 0) return query(text);
      for (const { name } of needed) prepared.add(name);
      try {
        return await query(`${needed.map(({ name, sql }) => `prepare ${name} as ${sql}`).join(';')};${text}`);
      } catch (error) {
        // A statement PostgreSQL would not prepare (class 42: its SQL, or a parameter's type) stopped
        // the text at its `prepare`: those of this text run as text from now on.
        if (String((error as { code?: unknown }).code).startsWith('42')) {
          for (const { name } of needed) {
            prepared.delete(name);
            notPreparable(name);
          }
        }
        throw error;
      }
    };
    client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      if (callback !== undefined || typeof text !== 'string' || typeof values === 'function') {
        return send(text, values, callback);
      }
      const bare = !Array.isArray(values) || values.length === 0;
      if (bare && text.startsWith(SEND_LATER) && !beginWaiting) {
        later.push(text.slice(SEND_LATER.length));
        return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] });
      }
      if (bare && text === 'rollback') later = [];
      if (!bare && later.length > 0) {
        // A statement with parameters cannot share a text: what waits goes just before it.
        const waiting = withLater('').slice(0, -1);
        return (send(waiting) as Promise<unknown>).then(() => client.query(text, values as never));
      }
      if (bare && commitSent && (text === 'commit' || text === 'rollback')) {
        commitSent = false;
        if (text === 'commit') return Promise.resolve({ command: 'COMMIT', rowCount: null, rows: [] });
      }
      // A statement that carries its transaction's commit (see deferred-commit.ts).
      if (bare && (text === COMMIT || text.endsWith(`;${COMMIT}`))) commitSent = true;
      if (text === 'begin' && bare && !beginWaiting) {
        beginWaiting = true;
        return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [] });
      }
      // A text of several statements answers with the last one's result, or, marked EACH, with one row
      // per statement holding that statement's rows (`begin` excluded).
      const each = bare && text.startsWith(EACH);
      const last = (result: unknown) => {
        const results = (Array.isArray(result) ? result : [result]) as { command: string; rows: unknown[] }[];
        if (!each) return results.at(-1);
        // Without what was prepared and begun ahead of the text's own statements.
        let first = 0;
        while (results[first]?.command === 'PREPARE' || results[first]?.command === 'BEGIN') first++;
        const own = results.slice(first);
        return { command: 'SELECT', rowCount: own.length, rows: own.map(({ rows }) => ({ rows })) };
      };
      if (!beginWaiting)
        return bare ? (send(withLater(text), values) as Promise<unknown>).then(last) : send(text, values);
      beginWaiting = false;
      // A transaction that ends before its first statement never needs to begin.
      if (bare && (text === 'commit' || text === 'rollback')) {
        return Promise.resolve({ command: text.toUpperCase(), rowCount: null, rows: [] });
      }
      if (bare) {
        return (send(`begin;${text}`, values) as Promise<unknown>).then(last);
      }
      return (send('begin') as Promise<unknown>).then(() => send(text, values));
    }) as typeof client.query;
  });
  // A pool reports errors of idle connections (the server restarting, say) here; unhandled, they
  // would end the process. The next query then opens a fresh connection.
  pool.on('error', (error) => {
    process.stderr.write(`threadwork server: database connection: ${error.message}\n`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  statementCounters.set(databaseKey(db), counter);
  // The listening connection's queries (see changes.ts `caughtUp`) are round trips too: counted.
  const stopListening = listenForChanges(db, () => {
    const client = new pg.Client({ connectionString: url });
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      counter.count++;
      return query(...args);
    }) as typeof client.query;
    return client;
  });
  return {
    db,
    dialect: 'postgres',
    close: async () => {
      await stopListening();
      await db.destroy();
    },
  };
}

async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider(handle.dialect),
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
}
