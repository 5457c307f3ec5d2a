import { defineProject } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineProject({
  plugins: [WxtVitest()],
  test: {
    name: 'extension',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    globalSetup: ['test/helpers/global-build.ts'],
    // The browser tests build the extension and start Chromium and a server.
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Each browser test file runs its own browser and server: one file at a time keeps them from starving
    // each other on a small machine (the unit tests take a second either way).
    fileParallelism: false,
    // Polls wait for a real browser on a shared machine: a second is too short under load.
    expect: { poll: { timeout: 10_000 } },
  },
});
