/**
 * The shared typed clients, run over Zapier's `z.request`: every request shows in Zapier's logs and passes
 * through the app's auth middleware (which adds the session token and refreshes it before it expires).
 *
 * Within one run the client retries what may be retried (no answer, a 5xx, 409 `idempotency_in_progress`),
 * resending the same Idempotency-Key, so a lost answer never makes a step act twice (lib/idempotency.ts),
 * at the run's pace and within its time (lib/run.ts), which also learns what each write ended in.
 * Zapier's own answers to a 401 and a 429 are not retried here: Zapier renews the token or reruns later.
 */
import type { LegacyClient, ThreadworkClient } from '@threadwork/shared';
import { ThreadworkError } from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { loadShared } from './load.ts';
import { type Attempt, type Run, recordAttempt, runOf, timingOf, whyNoAnswer } from './run.ts';

/** A session token given explicitly (a fresh one for subscribe/unsubscribe); else the connection's own. */
export interface ClientOptions {
  token?: string | undefined;
}

/**
 * The service origin the user connected. A user pastes what the browser shows, so any page of the service
 * stands for its origin (`https://app.example.com/mail/abc` and `https://app.example.com/v2` both mean
 * `https://app.example.com`), and an address without a scheme gets `https://` (`http://` for a service on
 * this computer: localhost, 127.x, ::1). Text that is no URL at all is handed back trimmed, for the
 * connection test to refuse by name (`serviceUrlProblem`).
 */
export function originOf(bundle: Bundle): string {
  const given = String(bundle.authData['origin'] ?? '').trim();
  if (given === '') return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(given)
    ? given
    : `${isLoopbackHost(hostOf(given)) ? 'http' : 'https'}://${given}`;
  if (!URL.canParse(withScheme)) return given;
  const url = new URL(withScheme);
  return /^https?:$/.test(url.protocol) ? url.origin : given;
}

/** Why the connection's service URL cannot be used; undefined when it can. */
export function serviceUrlProblem(origin: string): string | undefined {
  const example = 'Enter the address you open the service at, e.g. https://app.example.com.';
  if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol)) {
    return `"${origin}" is not a web address. ${example}`;
  }
  const url = new URL(origin);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `${origin} uses http://, which would send the API key unencrypted: use its https:// address (http:// works only for a service on this computer). ${example}`;
  }
  return undefined;
}

function hostOf(address: string): string {
  return (address.split(/[/?#]/)[0] ?? '').replace(/^[^@]*@/, '').replace(/:\d+$/, '');
}

/** localhost, 127.0.0.0/8 and ::1: a service on the same computer. */
function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    name === 'localhost' || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name) || name === '::1'
  );
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

/** What both clients take to run over `z.request`: the token, the run's retry timing, Zapier's fetch. */
function overZapier(z: ZObject, bundle: Bundle, { token }: ClientOptions) {
  const run = runOf(bundle);
  return {
    accessToken: () => token ?? sessionToken(bundle),
    ...timingOf(run),
    fetch: zapierFetch(z, run),
  };
}

/** Zapier's own errors that `z.request` raises; the client must pass them on, not retry them. */
const ZAPIER_ERRORS = new Set(['RefreshAuthError', 'ThrottledError', 'ExpiredAuthError', 'HaltedError']);

/** The header every write carries (the clients add it). */
const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The service's error code in an answer's body (`{ "error": { "code" } }`), when it has one. */
function errorCodeOf(content: unknown): string | undefined {
  try {
    const parsed = typeof content === 'string' ? (JSON.parse(content) as unknown) : content;
    const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Bodies of these statuses must be null in a fetch `Response`. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` over `z.request`. Statuses are left to the client (`skipThrowForStatus`), so its error types and
 * messages apply; Zapier's own answers to a 401 (`RefreshAuthError`) and a 429 (`ThrottledError`) are thrown
 * by `z.request` itself and reach the caller as the cause of the client's error (see `errors.ts`).
 */
export function zapierFetch(z: ZObject, run?: Run): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body === null ? undefined : await request.text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const key = headers[IDEMPOTENCY_HEADER];
    const record = (attempt: Attempt) => {
      if (run !== undefined && key !== undefined && request.method !== 'GET') {
        recordAttempt(run, key, request.method, new URL(request.url).pathname, attempt);
      }
    };
    let response: Awaited<ReturnType<ZObject['request']>>;
    try {
      response = await z.request({
        url: request.url,
        method: request.method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        // An attempt the client gives up on (its time is up) closes its connection.
        signal: request.signal,
        skipThrowForStatus: true,
      } as Parameters<ZObject['request']>[0]);
    } catch (error) {
      // Wrapped as a client error, so the client passes it on (errors.ts finds it as the cause).
      if (error instanceof Error && ZAPIER_ERRORS.has(error.name)) {
        throw new ThreadworkError({ message: error.message, code: 'zapier_error', cause: error });
      }
      record({ lost: whyNoAnswer(error) === 'lost' ? 'dropped' : 'refused' });
      throw error;
    }
    record({ status: response.status, code: errorCodeOf(response.content) });
    const responseHeaders = new Headers();
    for (const [name, value] of response.headers.entries()) responseHeaders.append(name, value);
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.content, {
      status: response.status,
      headers: responseHeaders,
    });
  };
}
