import { defineProject } from 'vitest/config';

// The whole server suite once more, on PostgreSQL (see test/helpers/database.ts). The root config
// adds this project only when THREADWORK_TEST_POSTGRES_URL is set; CI always sets it.
export default defineProject({
  test: {
    name: 'reference-server-postgres',
    include: ['test/**/*.test.ts'],
    exclude: [
      // SQLite by nature: the group commit's batches and savepoints exist only there.
      'test/group-commit.test.ts',
    ],
    env: { THREADWORK_TEST_DB: 'postgres' },
    globalSetup: ['test/global-setup-postgres.ts', 'test/helpers/contract-setup.ts'],
    // Every answer of every in-process server is checked against the OpenAPI document, here too.
    setupFiles: ['test/helpers/contract.ts'],
    // Making a database and migrating it takes a few hundred milliseconds per server.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
