import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    // Each file starts a real server process and waits for webhook deliveries.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
