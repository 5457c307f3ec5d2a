/**
 * The shared typed clients, run over Zapier's `z.request`: every request shows in Zapier's logs and passes
 * through the app's auth middleware (which adds the session token and refreshes it before it expires).
 *
 * Within one run the client retries what may be retried (no answer, a 5xx, 409 `idempotency_in_progress`),
 * resending the same Idempotency-Key, so a lost answer never makes a step act twice (lib/idempotency.ts).
 * Zapier's own answers to a 401 and a 429 are not retried here: Zapier renews the token or reruns later.
 */
import type { LegacyClient, ThreadworkClient } from '@threadwork/shared';
import { ThreadworkError } from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { loadShared } from './load.ts';

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

export interface Clients {
  /** The v2 client: `{origin}/v2`, legacy token auth (`x-access-token`). */
  v2(): ThreadworkClient;
  /** The v1 client: `{origin}/api/v1`, with the connection's session token. */
  v1(): LegacyClient;
}

/** Both clients' makers, once the shared package has loaded (lib/load.ts: not at the app's import). */
export async function clientsFor(z: ZObject, bundle: Bundle, options: ClientOptions = {}): Promise<Clients> {
  const { LegacyClient, ThreadworkClient } = await loadShared();
  return {
    v2: () => new ThreadworkClient({ baseUrl: `${originOf(bundle)}/v2`, ...overZapier(z, bundle, options) }),
    v1: () => new LegacyClient({ origin: originOf(bundle), ...overZapier(z, bundle, options) }),
  };
}

/** The v2 client: `{origin}/v2`, legacy token auth (`x-access-token`). */
export async function v2Client(
  z: ZObject,
  bundle: Bundle,
  options: ClientOptions = {},
): Promise<ThreadworkClient> {
  return (await clientsFor(z, bundle, options)).v2();
}

/** The v1 client: `{origin}/api/v1`, with the connection's session token. */
export async function v1Client(
  z: ZObject,
  bundle: Bundle,
  options: ClientOptions = {},
): Promise<LegacyClient> {
  return (await clientsFor(z, bundle, options)).v1();
}

/** Retries after the first attempt, and the time one attempt may take: all of them fit Zapier's 30 s. */
export const ZAPIER_MAX_RETRIES = 2;
export const ZAPIER_ATTEMPT_TIMEOUT_MS = 8_000;

/** What both clients take to run over `z.request`: the token, the retry budget, Zapier's fetch. */
function overZapier(z: ZObject, bundle: Bundle, { token }: ClientOptions) {
  return {
    accessToken: () => token ?? sessionToken(bundle),
    maxRetries: ZAPIER_MAX_RETRIES,
    timeout: ZAPIER_ATTEMPT_TIMEOUT_MS,
    fetch: zapierFetch(z),
  };
}

/** Zapier's own errors that `z.request` raises; the client must pass them on, not retry them. */
const ZAPIER_ERRORS = new Set(['RefreshAuthError', 'ThrottledError', 'ExpiredAuthError', 'HaltedError']);

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
    let response: Awaited<ReturnType<ZObject['request']>>;
    try {
      response = await z.request({
        url: request.url,
        method: request.method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        skipThrowForStatus: true,
      });
    } catch (error) {
      // Wrapped as a client error, so the client passes it on (errors.ts finds it as the cause).
      if (error instanceof Error && ZAPIER_ERRORS.has(error.name)) {
        throw new ThreadworkError({ message: error.message, code: 'zapier_error', cause: error });
      }
      throw error;
    }
    const responseHeaders = new Headers();
    for (const [name, value] of response.headers.entries()) responseHeaders.append(name, value);
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.content, {
      status: response.status,
      headers: responseHeaders,
    });
  };
}
