import { defineConfig } from 'vitest/config';

// One runner for the whole workspace: each package is a Vitest project with its own config. The
// reference server's suite runs again on PostgreSQL when a server is configured (CI always does).
const postgres = process.env['THREADWORK_TEST_POSTGRES_URL']
  ? ['test/reference-server/vitest.postgres.config.ts']
  : [];

export default defineConfig({
  test: {
    projects: ['*/vitest.config.ts', 'test/*/vitest.config.ts', ...postgres],
  },
});
