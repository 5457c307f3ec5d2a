// PostgreSQL: any number of server processes share the database (docs/postgresql.md). Each connection
// of the pool sends a transaction's `begin` and opening with its first statement, statements held by
// `sendLater` in front of the next one (a statement with parameters then travels with them, its values
// written in: see `withLiterals`), and parameterised statements as statements it prepares once.
import { Kysely, PostgresDialect } from 'kysely';
import { listenForChanges } from './changes.ts';
import { COMMIT, notPreparable, preparedStatements, withLiterals } from './deferred-commit.ts';
import { countStatements, DatabaseConfigError, type DatabaseHandle } from './executor.ts';
import type { Database } from './schema.ts';
import { FLUSH, OPENING, type Opening, SEND_LATER, takeOpening } from './transaction.ts';

/** Distinct statements a server process prepares on each PostgreSQL connection, at most. */
const MAX_NAMED_STATEMENTS = 1000;

/** Connections per server process: requests and the delivery worker share them. */
const POSTGRES_POOL_SIZE = 20;

export async function openPostgres(url: string): Promise<DatabaseHandle> {
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
    const session = new Session(client.query.bind(client) as Query, names, counter);
    client.query = session.query as typeof client.query;
  });
  // A pool reports errors of idle connections (the server restarting, say) here; unhandled, they
  // would end the process. The next query then opens a fresh connection.
  pool.on('error', (error) => {
    process.stderr.write(`threadwork server: database connection: ${error.message}\n`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  countStatements(db, counter);
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

type Query = (...args: unknown[]) => unknown;
type Result = { command: string; rowCount: number | null; rows: Record<string, unknown>[] };

const answered = (command: string): Result => ({ command, rowCount: null, rows: [] });

/** A statement with its parameters written in, to share a text with others; undefined if it cannot be. */
function asText(text: string, values: unknown): string | undefined {
  if (!Array.isArray(values) || values.length === 0) return text;
  try {
    return withLiterals({ sql: text, parameters: values });
  } catch {
    return undefined;
  }
}

/**
 * What one pooled connection holds back, so that statements travel together (see the top of this file):
 * a transaction's `begin` and its opening (transaction.ts `transact`) wait for its first statement, and
 * statements handed to `sendLater` for the next one. A text of several statements answers with the last
 * one's result; the opening's results go to the opening.
 */
class Session {
  readonly #send: Query;
  readonly #names: Map<string, string>;
  readonly #counter: { count: number };
  /** Statements this connection has prepared by name (see `withLiterals`). */
  readonly #prepared = new Set<string>();
  /** A `begin` waiting for the transaction's first statement, with the opening it carries. */
  #begin: { opening: Opening | undefined } | undefined;
  /** Statements held by `sendLater`, sent in front of the next one (a rollback drops them). */
  #later: string[] = [];
  /** The transaction's commit has gone with a statement: Kysely's own `commit` is answered here. */
  #commitSent = false;

  constructor(send: Query, names: Map<string, string>, counter: { count: number }) {
    this.#send = send;
    this.#names = names;
    this.#counter = counter;
  }

  readonly query = (text: unknown, values?: unknown, callback?: unknown): unknown => {
    if (callback !== undefined || typeof text !== 'string' || typeof values === 'function') {
      return this.#sendOne(text, values, callback);
    }
    const bare = !Array.isArray(values) || values.length === 0;
    if (bare && text === 'begin' && this.#begin === undefined) {
      this.#begin = { opening: undefined };
      return Promise.resolve(answered('BEGIN'));
    }
    if (bare && text.startsWith(OPENING)) {
      if (this.#begin === undefined) return Promise.reject(new Error('an opening outside a transaction'));
      this.#begin.opening = takeOpening(text.slice(OPENING.length));
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && text.startsWith(SEND_LATER)) {
      this.#later.push(text.slice(SEND_LATER.length));
      return Promise.resolve(answered('SELECT'));
    }
    if (bare && (text === 'commit' || text === 'rollback')) {
      if (text === 'rollback') this.#later = [];
      // A transaction that ends before its first statement never needs to begin.
      if (this.#begin !== undefined) {
        this.#begin = undefined;
        return Promise.resolve(answered(text.toUpperCase()));
      }
      if (this.#commitSent) {
        this.#commitSent = false;
        if (text === 'commit') return Promise.resolve(answered('COMMIT'));
      }
    }
    // A statement that carries its transaction's commit (see deferred-commit.ts).
    if (bare && (text === COMMIT || text.endsWith(`;${COMMIT}`))) this.#commitSent = true;
    return this.#sendWithHeld(text, values);
  };

  /** Sends `text` with whatever waits for it: the `begin` and its opening, then held statements. */
  async #sendWithHeld(text: string, values: unknown): Promise<unknown> {
    const begin = this.#begin;
    const opening = begin?.opening;
    const flush = text === FLUSH;
    if (begin === undefined && this.#later.length === 0) return this.#sendOne(text, values);
    const own = flush ? undefined : asText(text, values);
    const held = [...(begin === undefined ? [] : ['begin', ...(opening?.statements ?? [])]), ...this.#later];
    this.#begin = undefined;
    this.#later = [];
    if (own === undefined) {
      // Nothing to send but what waits (a flush), or a statement that cannot share a text: what waits
      // goes first, on its own.
      await this.#sendHeld(held, begin !== undefined, opening, []);
      return flush ? answered('SELECT') : this.#sendOne(text, values);
    }
    return this.#sendHeld(held, begin !== undefined, opening, [own]);
  }

  /** One text: `held` statements then `own` ones; the opening judges its results first. */
  async #sendHeld(held: string[], begun: boolean, opening: Opening | undefined, own: string[]) {
    const result = await this.#sendOne([...held, ...own].join(';'));
    const results = (Array.isArray(result) ? result : [result]) as Result[];
    let first = 0;
    while (results[first]?.command === 'PREPARE') first++;
    if (opening !== undefined) {
      const start = first + (begun ? 1 : 0);
      opening.read(results.slice(start, start + opening.statements.length));
    }
    return own.length === 0 ? answered('SELECT') : results.at(-1);
  }

  #sendOne(text: unknown, values?: unknown, callback?: unknown): unknown {
    this.#counter.count++;
    if (
      typeof text === 'string' &&
      (!Array.isArray(values) || values.length === 0) &&
      callback === undefined
    ) {
      return this.#sendText(text);
    }
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return this.#send(text, values, callback);
    }
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < MAX_NAMED_STATEMENTS) {
      name = `tw_${this.#names.size}`;
      this.#names.set(text, name);
    }
    return this.#send(name === undefined ? { text, values } : { name, text, values }, callback);
  }

  /**
   * A text whose statements this connection has yet to prepare prepares them first, in the same round
   * trip, ahead of everything (so ahead of a `begin` too: a prepared statement outlives transactions).
   */
  async #sendText(text: string): Promise<unknown> {
    const needed = preparedStatements(text, this.#prepared);
    if (needed.length === 0) return this.#send(text);
    for (const { name } of needed) this.#prepared.add(name);
    try {
      return await this.#send(
        `${needed.map(({ name, sql }) => `prepare ${name} as ${sql}`).join(';')};${text}`,
      );
    } catch (error) {
      // A statement PostgreSQL would not prepare (class 42: its SQL, or a parameter's type) stopped
      // the text at its `prepare`: those of this text run as text from now on.
      if (String((error as { code?: unknown }).code).startsWith('42')) {
        for (const { name } of needed) {
          this.#prepared.delete(name);
          notPreparable(name);
        }
      }
      throw error;
    }
  }
}
