import { defineConfig } from 'vitest/config';

// One runner for the whole workspace: each package is a Vitest project with its own config.
export default defineConfig({
  test: {
    projects: ['*/vitest.config.ts', 'test/*/vitest.config.ts'],
  },
});
