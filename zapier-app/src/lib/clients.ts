/**
 * The shared typed clients, run over Zapier's `z.request`: every request shows in Zapier's logs and passes
 * through the app's auth middleware (which adds the session token and refreshes it before it expires).
 * One attempt per call: inside a Zap, retries are Zapier's.
 */
import { LegacyClient, ThreadworkClient } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';

/** A session token given explicitly (a fresh one for subscribe/unsubscribe); else the connection's own. */
export interface ClientOptions {
  token?: string | undefined;
}

/**
 * The service origin the user connected: without a trailing slash, and without an API root pasted after it
 * (`https://host/v2` and `https://host/api/v1` both mean `https://host`).
 */
export function originOf(bundle: Bundle): string {
  return String(bundle.authData['origin'] ?? '')
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/(v2|api\/v1)$/, '');
}

/** The connection's session token (empty when there is none yet: the middleware then asks for a refresh). */
export function sessionToken(bundle: Bundle): string {
  return bundle.authData['sessionKey'] ?? '';
}

/** The v2 client: `{origin}/v2`, legacy token auth (`x-access-token`). */
export function v2Client(z: ZObject, bundle: Bundle, options: ClientOptions = {}): ThreadworkClient {
  return new ThreadworkClient({ baseUrl: `${originOf(bundle)}/v2`, ...overZapier(z, bundle, options) });
}

/** The v1 client: `{origin}/api/v1`, with the connection's session token. */
export function v1Client(z: ZObject, bundle: Bundle, options: ClientOptions = {}): LegacyClient {
  return new LegacyClient({ origin: originOf(bundle), ...overZapier(z, bundle, options) });
}

/** What both clients take to run over `z.request`: the token, one attempt, Zapier's fetch. */
function overZapier(z: ZObject, bundle: Bundle, { token }: ClientOptions) {
  return { accessToken: () => token ?? sessionToken(bundle), maxRetries: 0, fetch: zapierFetch(z) };
}

/** Bodies of these statuses must be null in a fetch `Response`. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over `z.request`. Statuses are left to the client (`skipThrowForStatus`), so its error types and
 * messages apply; Zapier's own answers to a 401 (`RefreshAuthError`) and a 429 (`ThrottledError`) are thrown
 * by `z.request` itself and reach the caller as the cause of the client's error (see `errors.ts`).
 */
export function zapierFetch(z: ZObject): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const response = await z.request({
      url: request.url,
      method: request.method as 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      skipThrowForStatus: true,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of response.headers.entries()) responseHeaders.append(name, value);
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.content, {
      status: response.status,
      headers: responseHeaders,
    });
  };
}
