import type { ThreadworkClient } from '@threadwork/shared';
import { expect } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import { appTester } from '../helpers/auth.ts';
import { IDS, startConnectedServer, THREADS } from '../helpers/live.ts';
import { type Kind, operationOf } from './support.ts';

/**
 * The app against a live reference server, started by its contract for one test file (the shared e2e
 * seed: ada's legacy key, the Acme boards and custom fields, her mailbox), connected as Zapier connects.
 */
export { IDS, THREADS };

export interface Connected {
  server: LiveServer;
  /** A v2 client with ada's full key, to see what the service holds. */
  service: ThreadworkClient;
  /** Runs an action's or search's perform through appTester over the live connection. */
  run(
    kind: Kind,
    key: string,
    inputData: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<unknown>;
  /**
   * Runs an action twice with the same inputs and the same Only Once Per value (a replayed Zap run); the
   * replay answers what the first run did.
   */
  twice(
    key: string,
    inputData: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  /** Runs a dynamic input-fields function of an action (e.g. a board's custom fields). */
  inputFields(key: string, inputData: Record<string, unknown>): Promise<Array<Record<string, unknown>>>;
}

export async function startConnected(): Promise<Connected> {
  const { server, authData, service } = await startConnectedServer({ testControl: false });
  const run: Connected['run'] = (kind, key, inputData, meta) =>
    appTester(operationOf(kind, key).perform as never, {
      authData,
      inputData,
      ...(meta === undefined ? {} : { meta }),
    });
  return {
    server,
    service,
    run,
    twice: async (key, inputData, meta) => {
      const once = { ...inputData, dedupe_key: `replay-${key}-${Math.random()}` };
      const first = await run('creates', key, once, meta);
      const second = await run('creates', key, once, meta);
      expect(second).toEqual(first);
      return first as Record<string, unknown>;
    },
    inputFields: (key, inputData) =>
      appTester(operationOf('creates', key).inputFields as never, { authData, inputData }),
  };
}
