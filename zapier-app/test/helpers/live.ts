import type { IncomingHttpHeaders } from 'node:http';
import { ThreadworkClient } from '@threadwork/shared';
import { type LiveServer, startLiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { ReceivedRequest } from '../../../test/e2e/test/helpers/receiver.ts';
import { CREDENTIALS, e2eSeed, IDS, THREADS } from '../../../test/e2e/test/helpers/seed.ts';
import { appTester, sessionPerform } from './auth.ts';

export { startReceiver } from '../../../test/e2e/test/helpers/receiver.ts';
export { seededLegacyClient } from '../../../test/e2e/test/helpers/seed.ts';
export { CREDENTIALS, IDS, THREADS };

/**
 * A reference server started by its contract (with `/_control` unless `testControl` is false), and the app
 * connected to it the way Zapier connects: the app's own session exchange turns the credentials into the
 * session token.
 */
export async function startConnectedServer({ testControl = true } = {}): Promise<{
  server: LiveServer;
  authData: Record<string, string>;
  /** A v2 client with a full-scope key, to cause events outside the app. */
  service: ThreadworkClient;
}> {
  const server = await startLiveServer({ seed: e2eSeed, testControl });
  const credentials = {
    origin: server.origin,
    email: CREDENTIALS.legacy.email,
    api_key: CREDENTIALS.legacy.apiKey,
    api_secret: CREDENTIALS.legacy.apiSecret,
    api_key_name: CREDENTIALS.legacy.apiKeyName,
  };
  const { sessionKey } = await appTester(sessionPerform, { authData: credentials });
  const service = new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full });
  return { server, authData: { ...credentials, sessionKey }, service };
}

/** Headers as Zapier hands them to a hook's `perform`: `x-service-event-id` becomes `Http-X-Service-Event-Id`. */
export function zapierHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const title = name
      .split('-')
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('-');
    result[`Http-${title}`] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

/** The bundle Zapier builds for `perform` from a delivery. */
export function deliveryBundle(delivery: ReceivedRequest, extra: Record<string, unknown> = {}) {
  return {
    cleanedRequest: delivery.json,
    rawRequest: { content: delivery.rawBody.toString('utf8'), headers: zapierHeaders(delivery.headers) },
    ...extra,
  };
}
