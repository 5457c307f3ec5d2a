// Group commit for SQLite. A commit costs more than the statements of a typical change (each page it
// touched is appended to the WAL, one write each), so, as server databases do, the changes made during
// one turn of the event loop share one commit: each transaction runs as a savepoint of a batch
// transaction, which commits once the turn's callbacks have run. Nothing may leave the process before
// the batch it read or wrote has committed (`whenCommitted`): an answer never reports a change that
// could still be lost, nor shows another request's change that could.
//
// A batch fails as a whole only if its COMMIT fails (I/O error, disk full): a failing statement or
// transaction rolls back its own savepoint, leaving the batch's other changes in place. (A deferred
// constraint would be checked at COMMIT and fail the whole batch; the schema declares none.)
import type SqliteDatabase from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

/** Where statements come from: prepared once per SQL text and kept. */
export interface StatementSource {
  prepare(text: string): SqliteDatabase.Statement;
  close(): void;
}

class Batch {
  readonly committed: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;
  constructor() {
    this.committed = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A failure nobody waits for is still handled: it is reported through `onFailure`.
    this.committed.catch(() => {});
  }
}

/** The open batch of one database, and when it commits. */
export class GroupCommit {
  #statements: StatementSource;
  #batch: Batch | null = null;
  #changeRunning = false;
  #flushScheduled = false;
  #writes = 0;
  #failureListeners: Array<(error: unknown) => void> = [];

  constructor(statements: StatementSource) {
    this.#statements = statements;
  }

  /** Resolves once everything written so far has committed; null when nothing is waiting to. */
  whenCommitted(): Promise<void> | null {
    return this.#batch?.committed ?? null;
  }

  /** Grows with every statement that may write, and with every failed batch: while it holds, so does the data. */
  get writeCount(): number {
    return this.#writes;
  }

  /** Called when a batch fails to commit, after its changes were rolled back. */
  onFailure(listener: (error: unknown) => void): void {
    this.#failureListeners.push(listener);
  }

  /**
   * Whether a statement may run at once, outside Kysely's connection queue: always inside the running
   * change (`inChange`), and otherwise when no change is running (else it would join that change).
   * Statements run synchronously, so nothing else can start while one runs.
   */
  mayRunNow(inChange: boolean): boolean {
    return inChange || !this.#changeRunning;
  }

  /** Runs one statement; one that may write joins the open batch. */
  execute<R>(query: { sql: string; parameters: readonly unknown[] }): QueryResult<R> {
    const statement = this.#statements.prepare(query.sql);
    if (!statement.readonly) this.#joinBatch();
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  /** Before a statement that may write: it joins the open batch, or opens one. */
  #joinBatch(): void {
    this.#writes++;
    if (this.#batch) return;
    this.#run('begin');
    this.#batch = new Batch();
    this.#scheduleFlush();
  }

  beginChange(): void {
    this.#joinBatch();
    this.#run('savepoint change');
    this.#changeRunning = true;
  }

  endChange(keep: boolean): void {
    this.#changeRunning = false;
    if (!keep) this.#run('rollback to change');
    this.#run('release change');
    // A flush that came while this change was running was put off until now.
    if (!this.#flushScheduled) this.#scheduleFlush();
  }

  /** Commits the open batch, unless a change is running (its end schedules the next flush). */
  flush(): void {
    const batch = this.#batch;
    if (!batch || this.#changeRunning) return;
    this.#batch = null;
    try {
      this.#run('commit');
    } catch (error) {
      try {
        this.#run('rollback');
      } catch {
        // SQLite may have rolled the transaction back itself.
      }
      this.#writes++;
      for (const listener of this.#failureListeners) listener(error);
      batch.reject(error);
      return;
    }
    batch.resolve();
  }

  /** Commits what is open, then closes the database. */
  close(): void {
    this.flush();
    this.#statements.close();
  }

  #run(text: string): void {
    this.#statements.prepare(text).run();
  }

  #scheduleFlush(): void {
    this.#flushScheduled = true;
    // After this turn's I/O callbacks: the requests that arrived together have all joined the batch.
    setImmediate(() => {
      this.#flushScheduled = false;
      this.flush();
    });
  }
}

class GroupCommitConnection implements DatabaseConnection {
  #group: GroupCommit;
  constructor(group: GroupCommit) {
    this.#group = group;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#group.execute(query);
  }

  // biome-ignore lint/correctness/useYield: it refuses before yielding anything.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite here; page with limit/offset');
  }
}

// Kysely holds its one SQLite connection for a transaction from begin to commit, so these run one
// transaction at a time; every statement runs synchronously, so none interleaves with a flush.
class GroupCommitDriver implements Driver {
  #group: GroupCommit;
  #connection: GroupCommitConnection;
  constructor(group: GroupCommit) {
    this.#group = group;
    this.#connection = new GroupCommitConnection(group);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    this.#group.beginChange();
  }
  async commitTransaction(): Promise<void> {
    this.#group.endChange(true);
  }
  async rollbackTransaction(): Promise<void> {
    this.#group.endChange(false);
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    this.#group.close();
  }
}

const groups = new WeakMap<DialectAdapter, GroupCommit>();

/** Kysely's SQLite dialect, each transaction a savepoint of the open batch. */
export class GroupCommitSqliteDialect implements Dialect {
  #group: GroupCommit;
  constructor(statements: StatementSource) {
    this.#group = new GroupCommit(statements);
  }
  createDriver(): Driver {
    return new GroupCommitDriver(this.#group);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    const adapter = new SqliteAdapter();
    groups.set(adapter, this.#group);
    return adapter;
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** The group commit behind a dialect's adapter, if the database has one. */
export function groupCommitOf(adapter: DialectAdapter): GroupCommit | undefined {
  return groups.get(adapter);
}
