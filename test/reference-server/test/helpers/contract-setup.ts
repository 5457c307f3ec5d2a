// Vitest global setup: turns the OpenAPI document into Prism's operations once per run, for every test
// file's contract check (contract.ts) to read, instead of once per file.
import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';
import { buildDocument } from '../../src/http/openapi/document.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Prism's operations of the OpenAPI document, as JSON. */
    contractOperations: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const require = createRequire(import.meta.url);
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http/dist/utils/operations.js') as {
    getHttpOperationsFromSpec(document: object): Promise<object[]>;
  };
  project.provide('contractOperations', JSON.stringify(await getHttpOperationsFromSpec(buildDocument())));
}
