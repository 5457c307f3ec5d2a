// Write transactions, per engine: `transact` runs a unit of work as one transaction, on SQLite as a
// savepoint of the group commit's batch (group-commit.ts), on PostgreSQL under the write lock, with
// its reads sent with its `begin` and its commit deferred for a keyed request's answer
// (deferred-commit.ts; docs/postgresql.md says why each is so).
import { type Compilable, type CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
import { noteChange } from './changes.ts';
import { COMMIT, type DeferredCommit, finishDeferred, withLiterals } from './deferred-commit.ts';
import { type Executor, isShared } from './executor.ts';
import { type GroupCommit, groupCommitOf } from './group-commit.ts';
import type { Database } from './schema.ts';

/** The group commit of a SQLite database (see group-commit.ts); undefined on other engines. */
export function groupCommit(executor: Executor): GroupCommit | undefined {
  return groupCommitOf(executor.getExecutor().adapter);
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
 * processes write at once, the transaction first takes the write lock (see `Locking`); READ COMMITTED
 * then reads the latest committed data at every statement, so a row locked as it is read (a read
 * with the intent `change`, storage/locks.ts) is read as it stands. A transaction that lost a race (a
 * deadlock, or a serialization failure; `raceLost` for one the work detects itself) is run again, a
 * bounded number of times. `work` must have no effect outside the transaction.
 * (SERIALIZABLE with retries was tried first: on tables this small PostgreSQL's predicate locks
 * cover whole tables, so concurrent creates aborted each other until the retries ran out.)
 *
 * On PostgreSQL the transaction's opening travels with the work's first statement, in one round trip
 * (postgres.ts): `begin`, the write lock, then, under it, each in a statement of its own and so with a
 * fresh snapshot, the request's Idempotency-Key claim (deferred-commit.ts), what `readAtBegin` asked
 * for, and the work's first statement itself. Whatever the work reads first is thus read with its
 * `begin`, and no caller says ahead what that is. The claim is judged before that statement's answer
 * reaches the work: a claim refused (the key is in progress, or answered) ends the work there.
 * `deferred` is the scope of the keyed request it runs for, if any (deferred-commit.ts).
 */
export async function transact<T>(
  db: Kysely<Database>,
  work: (tx: Transaction<Database>) => Promise<T>,
  locking: Locking = 'everything',
  deferred?: DeferredCommit,
): Promise<T> {
  if (!isShared(db)) return db.transaction().execute(work);
  // A request holding an Idempotency-Key: the transaction stays open for its answer (deferred-commit.ts).
  // A second write transaction of the same request commits the first, keeping the key's claim in a row
  // of its own, and runs as usual.
  if (deferred?.open !== undefined) {
    const keep = deferred.held === 'transaction' ? deferred.claim?.keep() : undefined;
    await finishDeferred(deferred, keep ?? sql`select 1`.compile(db));
    if (keep !== undefined) deferred.held = 'row';
  }
  const claim = deferred?.wanted && deferred.held === undefined ? deferred.claim : undefined;
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
  ];
  const claimCount = claim?.statements.length ?? 0;
  for (let run = 1; ; run++) {
    const tx = await db.startTransaction().execute();
    let refused: unknown;
    const opening: Opening = {
      locking,
      statements,
      claimCount,
      sent: false,
      read(results) {
        this.sent = true;
        try {
          claim?.check(results.slice(1, 1 + claimCount));
        } catch (error) {
          refused = error;
          throw new OpeningRefused();
        }
        if (claim !== undefined) deferred!.held = 'transaction';
        if (beginReads.size > 0) beginReadsOf.set(tx, results[1 + claimCount]?.rows[0] ?? {});
      },
    };
    try {
      await sql.raw(`${OPENING}${holdOpening(opening)}`).execute(tx);
      if (opening.connection !== undefined) connectionOf.set(tx, opening.connection);
      const result = await work(tx);
      // Work that sent nothing still begins: its claim decides whether the request runs.
      if (!opening.sent) await sql.raw(FLUSH).execute(tx);
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
    } catch (caught) {
      const error = refused ?? caught;
      if (
        opening.grouped &&
        deferred?.held === 'transaction' &&
        refused === undefined &&
        !isRaceLost(error)
      ) {
        // Its group holds the key's claim until it commits: the answer (a 404, say) is stored there,
        // with nothing else of this transaction's (its writes are dropped).
        await sql.raw(DISCARD).execute(tx);
        deferred.open = tx;
        deferred.afterwards.push(() => noteChange(db, 'data'));
        throw error;
      }
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

/**
 * What a PostgreSQL transaction sends first (see `transact`): held by its connection until the work's
 * first statement, and sent with it.
 */
export interface Opening {
  /** How the transaction keeps out of other writers' way (see `Locking`). */
  locking: Locking;
  /**
   * SQL statements without parameters, sent in this order right after `begin`: the write lock, the
   * claim's (`claimCount` of them), then what `readAtBegin` asked for, if anything.
   */
  statements: readonly string[];
  claimCount: number;
  /** Set by the connection when the transaction shares its commit with others (sessions.ts `ListGroup`). */
  grouped?: boolean;
  /** Whether they have been sent. */
  sent: boolean;
  /** Set by the connection as it takes the opening: what `sendLater` and `joinListGroup` tell directly. */
  connection?: HeldStatements;
  /** Judges their results (one per statement), before the first statement's answer is used; may throw. */
  read(results: readonly { rows: Record<string, unknown>[] }[]): void;
}

/**
 * A PostgreSQL transaction's connection, as the statements it holds back are handed to it: straight,
 * without a trip through Kysely's query path (a handful of promises each, several times per create).
 */
export interface HeldStatements {
  /** Holds `text` to travel in front of the next statement (`sendLater`). */
  sendLater(text: string): void;
  /** Names the group the transaction may join, before its first statement (`joinListGroup`). */
  joinGroup(key: string): void;
}

/** Each open PostgreSQL transaction's connection (see `HeldStatements`); weak, so ended ones go. */
const connectionOf = new WeakMap<Executor, HeldStatements>();

/** What a connection rejects the first statement with when `Opening.read` refused: `transact` says why. */
export class OpeningRefused extends Error {
  override name = 'OpeningRefused';
}

/** How the statement that hands a transaction its opening starts (postgres.ts takes it from there). */
export const OPENING = '/*opening*/';
/** A statement that only makes a connection send what it holds (the opening of work that sent nothing). */
export const FLUSH = '/*flush*/';
/**
 * Tells a transaction's connection, before its first statement, which group of transactions it may
 * share its commit with (sessions.ts `ListGroup`).
 */
export const GROUP = '/*group*/';

/**
 * Before the first statement of a write transaction that only adds tasks at the top or bottom of list
 * `key`: on PostgreSQL the transaction may share its commit with others of this process doing the same
 * (sessions.ts `ListGroup`). Elsewhere, nothing.
 */
export async function joinListGroup(executor: Executor, key: string): Promise<void> {
  if (!executor.isTransaction || !isShared(executor)) return;
  const connection = connectionOf.get(executor);
  if (connection !== undefined) connection.joinGroup(key);
  else await sql.raw(`${GROUP}${key.replaceAll('*/', '')}`).execute(executor);
}

/** A statement that drops what `sendLater` holds (the writes of work that failed, kept for its answer). */
export const DISCARD = '/*discard*/';

const openings = new Map<string, Opening>();
let lastOpening = 0;

/** Keeps `opening` until its connection takes it (`takeOpening`); answers its id. */
function holdOpening(opening: Opening): string {
  const id = String(++lastOpening);
  openings.set(id, opening);
  return id;
}

/** The opening of id `id`, once. */
export function takeOpening(id: string): Opening | undefined {
  const opening = openings.get(id);
  openings.delete(id);
  return opening;
}

/** How a statement handed to `sendLater` starts on its way to the connection (see openPostgres). */
export const SEND_LATER = '/*later*/';

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
  const connection = connectionOf.get(executor);
  if (connection !== undefined) connection.sendLater(withLiterals(query));
  else await sql.raw(`${SEND_LATER}${withLiterals(query)}`).execute(executor);
  return true;
}

/**
 * Runs a write whose outcome nothing reads: on PostgreSQL it travels with the transaction's next
 * statement (see `sendLater`); elsewhere it runs at once.
 */
export async function writeLater(executor: Executor, query: Compilable): Promise<void> {
  const compiled = query.compile();
  if (!(await sendLater(executor, compiled))) await executor.executeQuery(compiled);
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
