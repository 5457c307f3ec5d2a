// The PostgreSQL project's global setup: drops the test databases (see helpers/database.ts) that a
// previous run left behind, and, once every test has run, those of this run.
import { postgresAdminUrl, TEST_DATABASE_PREFIX } from './helpers/database.ts';

async function dropTestDatabases(): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [TEST_DATABASE_PREFIX],
    );
    for (const { datname } of rows) {
      // FORCE: a server a failed test left running must not keep its database alive.
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  await dropTestDatabases();
}

export async function teardown(): Promise<void> {
  await dropTestDatabases();
}
