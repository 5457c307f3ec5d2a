import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reference-server',
    include: ['test/**/*.test.ts'],
    // Several processes on one shared database: PostgreSQL only (vitest.postgres.config.ts).
    exclude: ['test/postgres/**'],
  },
});
