/**
 * The app definition: session auth, REST-hook triggers and dropdowns, creates and searches, each keyed by
 * its `key` (the keys are a contract: outside tests drive the app by them).
 */
import zapier, { defineApp } from 'zapier-platform-core';
import packageJson from '../package.json' with { type: 'json' };
import authentication, { addSessionToken } from './authentication.ts';
import creates from './creates/index.ts';
import searches, { searchOrCreates } from './searches/index.ts';
import triggers from './triggers/index.ts';

function byKey<T extends { key: string }>(operations: readonly T[]): Record<string, T> {
  return Object.fromEntries(operations.map((operation) => [operation.key, operation]));
}

export default defineApp({
  version: packageJson.version,
  platformVersion: zapier.version,
  authentication,
  beforeRequest: [addSessionToken],
  afterResponse: [],
  triggers: byKey(triggers),
  creates: byKey(creates),
  searches: byKey(searches),
  searchOrCreates: byKey(searchOrCreates),
});
