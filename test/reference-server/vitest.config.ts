import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reference-server',
    include: ['test/**/*.test.ts'],
    // Several processes on one shared database: PostgreSQL only (vitest.postgres.config.ts).
    exclude: ['test/postgres/**'],
    // Every answer of every in-process server is checked against the OpenAPI document.
    globalSetup: ['test/helpers/contract-setup.ts'],
    setupFiles: ['test/helpers/contract.ts'],
  },
});
