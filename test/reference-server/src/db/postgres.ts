// PostgreSQL: any number of server processes share the database (docs/postgresql.md). Kysely's
// connections are sessions over the process's pool (sessions.ts), which make statements travel
// together and let creates on one list share their commit.
import { Kysely, PostgresDialect } from 'kysely';
import { listenForChanges } from './changes.ts';
import { countStatements, DatabaseConfigError, type DatabaseHandle } from './executor.ts';
import type { Database } from './schema.ts';
import { Sessions } from './sessions.ts';

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
  // A pool reports errors of idle connections (the server restarting, say) here; unhandled, they
  // would end the process. The next query then opens a fresh connection.
  pool.on('error', (error) => {
    process.stderr.write(`threadwork server: database connection: ${error.message}\n`);
  });
  const counter = { count: 0 };
  const sessions = new Sessions(pool, counter);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: sessions }) });
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
