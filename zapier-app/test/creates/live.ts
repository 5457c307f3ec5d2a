import { ThreadworkClient } from '@threadwork/shared';
import zapier from 'zapier-platform-core';
import { type LiveServer, startLiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import { CREDENTIALS, IDS, THREADS } from '../../../test/e2e/test/helpers/seed.ts';
import App from '../../src/index.ts';
import type { Kind } from './support.ts';

/**
 * The app against a live reference server, started by its contract for one test file (the shared e2e
 * seed: ada's legacy key, the Acme boards and custom fields, her mailbox). The connection is made the way
 * Zapier makes it: the app's own session exchange turns the credentials into the session token.
 */
export { IDS, THREADS };

const appTester = zapier.createAppTester(App);

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
  /** Runs a dynamic input-fields function of an action (e.g. a board's custom fields). */
  inputFields(key: string, inputData: Record<string, unknown>): Promise<Array<Record<string, unknown>>>;
}

type Operations = Record<string, { operation: { perform: unknown; inputFields: unknown[] } }>;

export async function startConnected(): Promise<Connected> {
  const server = await startLiveServer();
  const credentials = {
    origin: server.origin,
    email: CREDENTIALS.legacy.email,
    api_key: CREDENTIALS.legacy.apiKey,
    api_secret: CREDENTIALS.legacy.apiSecret,
    api_key_name: CREDENTIALS.legacy.apiKeyName,
  };
  const authentication = App.authentication as unknown as { sessionConfig: { perform: unknown } };
  const session = (await appTester(
    authentication.sessionConfig.perform as never,
    {
      authData: credentials,
    } as never,
  )) as { sessionKey: string };
  const authData = { ...credentials, sessionKey: session.sessionKey };
  const operationOf = (kind: Kind, key: string) => {
    const operation = (App[kind] as unknown as Operations)[key];
    if (operation === undefined) throw new Error(`the app has no ${kind}.${key}`);
    return operation.operation;
  };
  return {
    server,
    service: new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full }),
    run: (kind, key, inputData, meta) =>
      appTester(
        operationOf(kind, key).perform as never,
        {
          authData,
          inputData,
          ...(meta === undefined ? {} : { meta }),
        } as never,
      ) as Promise<unknown>,
    inputFields: (key, inputData) =>
      appTester(
        operationOf('creates', key).inputFields as never,
        { authData, inputData } as never,
      ) as Promise<Array<Record<string, unknown>>>,
  };
}
