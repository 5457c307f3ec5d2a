import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'zapier-app',
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    // Live tests start a reference server per file and wait for webhook deliveries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
