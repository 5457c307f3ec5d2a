import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reference-server',
    include: ['test/**/*.test.ts'],
    // Every answer of every in-process server is checked against the OpenAPI document.
    globalSetup: ['test/helpers/contract-setup.ts'],
    setupFiles: ['test/helpers/contract.ts'],
  },
});
