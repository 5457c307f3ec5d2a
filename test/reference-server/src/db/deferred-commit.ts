// A request's change and its stored idempotency answer commit together on PostgreSQL too (on SQLite
// they join one batch of the group commit). A request that holds an Idempotency-Key has a scope of its
// own (`DeferredCommit`, handed down explicitly: the request's context carries it to `transact`), in
// which its write transaction, once its work has succeeded, is left open instead of committing; the
// answer is then written in it, and it commits (`finishDeferred`). The key itself is claimed by that
// transaction, in the round trip of its `begin` (`Claim`), and held until it ends: a process killed at
// any point loses its change and its claim together, and a retry runs the request again at once. What
// must follow the commit (waking the outbox, telling caches) waits for it (`afterCommit`).
import { type CompiledQuery, type ControlledTransaction, sql } from 'kysely';
import { BUMP_DATA_VERSION } from './migrations/009_data_version.ts';
import type { Database } from './schema.ts';

/**
 * What a request's write transaction runs first, in the round trip of its `begin`, right after its
 * write lock, and judges before its work runs (the Idempotency-Key's claim: http/idempotency.ts).
 */
export interface Claim {
  /** SQL statements without parameters: each reads with a fresh snapshot. */
  statements: readonly string[];
  /** Judges their results, one per statement: throws to end the request before its work runs. */
  check(results: readonly { rows: Record<string, unknown>[] }[]): void;
  /** Written in the transaction when it must commit before the request is answered: keeps the claim. */
  keep(): CompiledQuery;
}

export interface DeferredCommit {
  /** Set once the request holds its key: from then on its write transaction waits for the answer. */
  wanted: boolean;
  /** What the request's write transaction claims as it begins (see `Claim`). */
  claim?: Claim | undefined;
  /**
   * How the request holds its claim: `transaction` while `open` holds it (it ends with it), `row`
   * once `keep` was written and committed. Undefined while nothing holds it.
   */
  held?: 'transaction' | 'row' | undefined;
  /** The request's write transaction, done but not committed. */
  open?: ControlledTransaction<Database> | undefined;
  /** Run once `open` has committed (told true) or rolled back (false). */
  afterwards: ((committed: boolean) => void | Promise<void>)[];
}

/**
 * A request's scope, before it holds its key. Passed by hand rather than found through
 * AsyncLocalStorage: that keeps a hook on every promise of the process, a tenth of a keyed create's time.
 */
export function newDeferredCommit(): DeferredCommit {
  return { wanted: false, afterwards: [] };
}

/**
 * Runs `action` once the write transaction `deferred` holds open, if any, has ended, telling it
 * whether it committed; at once (committed) if none is open (or there is no scope).
 */
export async function afterCommit(
  deferred: DeferredCommit | undefined,
  action: (committed: boolean) => void | Promise<void>,
): Promise<void> {
  if (deferred?.open !== undefined) deferred.afterwards.push(action);
  else await action(true);
}

/**
 * Ends the request's open write transaction, if any: `last` runs in it and it commits, in one round
 * trip, or, without `last`, it rolls back. A failure rolls it back and is thrown. Then runs what
 * waited for it.
 */
export async function finishDeferred(deferred: DeferredCommit, last?: CompiledQuery): Promise<void> {
  const tx = deferred.open;
  deferred.open = undefined;
  deferred.wanted = false;
  if (deferred.held === 'transaction') deferred.held = undefined;
  let committed = false;
  try {
    if (tx === undefined) return;
    if (last === undefined) {
      await tx.rollback().execute();
      return;
    }
    try {
      // The statement carries the commit (the connection then answers Kysely's own `commit` itself:
      // see `Session` in sessions.ts).
      await sql.raw(`${withLiterals(last)};${COMMIT}`).execute(tx);
      await tx.commit().execute();
      committed = true;
    } catch (error) {
      await tx
        .rollback()
        .execute()
        .catch(() => {});
      throw error;
    }
  } finally {
    const actions = deferred.afterwards.splice(0);
    for (const action of actions) await action(committed);
  }
}

/**
 * A PostgreSQL statement with its parameters written in as literals (a statement with parameters
 * cannot share a round trip with another), as the execution of a statement prepared on the connection
 * (`EXECUTE name(literals)`, see `preparedStatements`): PostgreSQL then plans it once per connection,
 * where a statement sent as text is planned every time (planning cost more than running most of
 * these). Text goes in E'…' strings, whose escapes mean the same whatever
 * standard_conforming_strings says.
 */
export function withLiterals(query: Pick<CompiledQuery, 'sql' | 'parameters'>): string {
  const name = preparedName(query.sql);
  if (name === undefined) {
    return query.sql.replace(/\$(\d+)/g, (_, index: string) => literal(query.parameters[Number(index) - 1]));
  }
  return query.parameters.length === 0
    ? `execute ${name}`
    : `execute ${name}(${query.parameters.map(literal).join(', ')})`;
}

/** How many distinct statements a process prepares by name; those beyond run as text. */
const MAX_PREPARED = 500;
const namesBySql = new Map<string, string>();
const sqlByName = new Map<string, string>();
/** Statements PostgreSQL would not prepare (a parameter of no type it can tell): run as text. */
const unpreparable = new Set<string>();

function preparedName(sql: string): string | undefined {
  let name = namesBySql.get(sql);
  if (name === undefined && namesBySql.size < MAX_PREPARED) {
    name = `twx_${namesBySql.size}`;
    namesBySql.set(sql, name);
    sqlByName.set(name, sql);
  }
  return name === undefined || unpreparable.has(name) ? undefined : name;
}

/**
 * What a connection must prepare before it can send `text`, given what it has prepared: each
 * `EXECUTE name` of `withLiterals` it has not (a text that merely looks like one prepares a statement
 * for nothing, which does no harm).
 */
export function preparedStatements(
  text: string,
  prepared: ReadonlySet<string>,
): { name: string; sql: string }[] {
  const needed = new Map<string, string>();
  for (const [, name] of text.matchAll(/execute (twx_\d+)/g)) {
    const sql = sqlByName.get(name!);
    if (sql !== undefined && !prepared.has(name!)) needed.set(name!, sql);
  }
  return [...needed].map(([name, sql]) => ({ name, sql }));
}

/** A statement PostgreSQL refused to prepare: from now on it runs as text. */
export function notPreparable(name: string): void {
  unpreparable.add(name);
}

/**
 * How a text that carries its write transaction's commit ends: the commit, then, once it is done and
 * in the same round trip, the move of the data version that other processes' caches read (changes.ts).
 */
export const COMMIT = `commit;${withLiterals({ sql: BUMP_DATA_VERSION, parameters: [] })}`;

/** What a text literal must escape (a backslash, a quote), or cannot hold (NUL). */
const NEEDS_ESCAPE = /[\\'\0]/;

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    // Most values hold nothing to escape: one scan says so.
    if (!NEEDS_ESCAPE.test(value)) return `E'${value}'`;
    if (!value.includes('\0')) return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  }
  throw new Error(`cannot write ${typeof value} as an SQL literal`);
}
