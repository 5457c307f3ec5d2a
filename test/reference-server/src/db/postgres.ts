// PostgreSQL: any number of server processes share the database (docs/postgresql.md). Each
// connection of the pool sends a transaction's `begin` with its first statement, statements held by
// `sendLater` in front of the next one, and parameterised statements as statements it prepares once.
import { Kysely, PostgresDialect } from 'kysely';
import { listenForChanges } from './changes.ts';
import { COMMIT, notPreparable, preparedStatements } from './deferred-commit.ts';
import { countStatements, DatabaseConfigError, type DatabaseHandle } from './executor.ts';
import type { Database } from './schema.ts';
import { EACH, SEND_LATER } from './transaction.ts';

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
