// Which database a test server runs on. The suite runs twice: on SQLite (the `reference-server`
// project, an in-memory database per server) and on PostgreSQL (the `reference-server-postgres`
// project, which sets THREADWORK_TEST_DB=postgres; it exists only when THREADWORK_TEST_POSTGRES_URL
// names a server). On PostgreSQL every server gets a database of its own, made from template0 with
// the C collation so that text sorts byte-wise, as on SQLite; global-setup-postgres.ts drops them.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import type { DialectName } from '../../src/db/migrations/columns.ts';
import { migrationProvider } from '../../src/db/migrations/index.ts';

export const onPostgres = process.env['THREADWORK_TEST_DB'] === 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's test databases' names start so (see testRunPrefix). */
    testDatabasePrefix: string;
  }
}

/** Every test database's name starts so. */
export const TEST_DATABASE_PREFIX = 'tw_test_';

/**
 * The prefix of one run's test databases: `tw_test_r<start time, base 36 ms>_<random>_`. Several runs
 * may share one PostgreSQL server at once; each drops only its own databases, and those of runs
 * started over an hour ago (their time is in their names).
 */
export function testRunPrefix(startedAt = Date.now()): string {
  return `${TEST_DATABASE_PREFIX}r${startedAt.toString(36)}_${randomBytes(4).toString('hex')}_`;
}

/** When the run that named `database` started (ms), or undefined for a name not made by testRunPrefix. */
export function testRunStartOf(database: string): number | undefined {
  const match = /^tw_test_r([0-9a-z]+)_[0-9a-f]{8}_/.exec(database);
  return match?.[1] === undefined ? undefined : Number.parseInt(match[1], 36);
}

/** The server URL the test databases are made on (any database of it: the URL's own is only connected to). */
export function postgresAdminUrl(): string {
  const url = process.env['THREADWORK_TEST_POSTGRES_URL'];
  if (!url) throw new Error('THREADWORK_TEST_POSTGRES_URL is not set');
  return url;
}

/** The URL of `database` on the test server. */
export function postgresUrlOf(database: string): string {
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** Makes an empty database and answers its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `${inject('testDatabasePrefix')}${process.pid}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    await client.query(
      `create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`,
    );
  } finally {
    await client.end();
  }
  return postgresUrlOf(name);
}

// `--db PATH` of a spawned server means the same database each time within one test file (a restart
// must find its data): on PostgreSQL each path maps to one database.
const databaseOfPath = new Map<string, Promise<string>>();

/**
 * Server options for the database at `path` (default: a fresh one): `{ db: path }` on SQLite, and on
 * PostgreSQL a `databaseUrl` as well (a fresh database for `:memory:`, one per path otherwise).
 * Spread them into `startServer`'s options.
 */
export async function freshDatabase(path = ':memory:'): Promise<{ db: string; databaseUrl?: string }> {
  if (!onPostgres) return { db: path };
  return { db: path, databaseUrl: await postgresDatabaseOf(path) };
}

function postgresDatabaseOf(path: string): Promise<string> {
  if (path === ':memory:') return createPostgresDatabase();
  let url = databaseOfPath.get(path);
  if (url === undefined) {
    url = createPostgresDatabase();
    databaseOfPath.set(path, url);
  }
  return url;
}

/**
 * The environment and flags of a spawned server: on PostgreSQL, `--db PATH` becomes a DATABASE_URL
 * (a fresh database for `:memory:`, one per path otherwise), and the flags are kept as they are.
 */
export async function spawnDatabaseEnv(args: readonly string[]): Promise<NodeJS.ProcessEnv> {
  if (!onPostgres) return {};
  const index = args.indexOf('--db');
  const path = index === -1 ? ':memory:' : (args[index + 1] ?? ':memory:');
  return { DATABASE_URL: await postgresDatabaseOf(path) };
}

/** `openDatabase` on a fresh database of the engine under test. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const { db, databaseUrl } = await freshDatabase();
  return openDatabase({ path: db, databaseUrl });
}

type AnyDatabase = Kysely<Record<string, Record<string, unknown>>>;

/**
 * A fresh, empty database of the engine under test (on SQLite a file in `dir`) for a migration test:
 * `db`, a bare connection to write it as an older server left it (after `migrateBefore`; destroy it
 * before opening), and `open`, what `openDatabase` takes to open it and run the later migrations.
 */
export async function olderDatabase(
  dir: string,
): Promise<{ db: AnyDatabase; open: { path: string; databaseUrl?: string } }> {
  if (onPostgres) {
    const { default: pg } = await import('pg');
    const databaseUrl = await createPostgresDatabase();
    const db: AnyDatabase = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
    });
    return { db, open: { path: ':memory:', databaseUrl } };
  }
  const path = join(dir, `old-${randomBytes(4).toString('hex')}.db`);
  return {
    db: new Kysely({ dialect: new SqliteDialect({ database: new SqliteDatabase(path) }) }),
    open: { path },
  };
}

/**
 * Runs every migration named before `before` (e.g. `'007'`) on `db`, as an older server would have left
 * the database, so that a test can write old rows and check what the later migrations make of them.
 */
export async function migrateBefore(
  db: Kysely<Record<string, Record<string, unknown>>>,
  dialect: DialectName,
  before: string,
): Promise<void> {
  const all = migrationProvider(dialect);
  const migrator = new Migrator({
    db,
    provider: {
      async getMigrations() {
        const migrations = await all.getMigrations();
        return Object.fromEntries(Object.entries(migrations).filter(([name]) => name < before));
      },
    },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
