// The PostgreSQL project's global setup: names this run's test databases (see helpers/database.ts)
// and drops them once every test has run, together with those a run started over an hour ago left
// behind. Another run going at the same time on the same PostgreSQL keeps its databases.
import type { TestProject } from 'vitest/node';
import { postgresAdminUrl, testRunPrefix, testRunStartOf } from './helpers/database.ts';

const STALE_AFTER_MS = 60 * 60 * 1000;

async function dropTestDatabases(isOurs: (database: string) => boolean): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgresAdminUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "select datname from pg_database where starts_with(datname, 'tw_test_r')",
    );
    for (const { datname } of rows) {
      const startedAt = testRunStartOf(datname);
      const stale = startedAt !== undefined && Date.now() - startedAt > STALE_AFTER_MS;
      if (!isOurs(datname) && !stale) continue;
      // FORCE: a server a failed test left running must not keep its database alive.
      await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prefix = testRunPrefix();
  project.provide('testDatabasePrefix', prefix);
  await dropTestDatabases(() => false);
  return () => dropTestDatabases((database) => database.startsWith(prefix));
}
