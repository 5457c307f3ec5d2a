/**
 * Session auth with the v1 credentials (the key the extension's API tab creates). The token endpoint turns
 * them into a JWT session token (about 20 minutes) that serves v1 (`x-access-token`) and v2 alike (legacy
 * token auth). The middleware below adds it to every request, never to the token endpoint, and asks Zapier
 * to renew it a minute before its `exp`, so no request is sent with a token about to expire.
 */
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  RequestValidationError,
  ThreadworkError,
  TimeoutError,
  tokenNeedsRefresh,
  ValidationError,
} from '@threadwork/shared/light';
import type { Authentication, BeforeRequestMiddleware, Bundle, ZObject } from 'zapier-platform-core';
import { originOf, serviceUrlProblem, v2Client, zapierFetch } from './lib/clients.ts';
import {
  NO_ANSWER_WORDS,
  redact,
  revokedKeyMessage,
  withoutSecrets,
  withZapierErrors,
  zapierCause,
} from './lib/errors.ts';
import { loadShared } from './lib/load.ts';
import { whyNoAnswer } from './lib/run.ts';

export const TOKEN_PATH = '/auth/api_token';
const TOKEN_HEADER = 'x-access-token';
const THROTTLED = new Set(['ThrottledError']);

/** Exchanges the connection's credentials for a new session token (one request to the token endpoint). */
export async function exchangeCredentials(z: ZObject, bundle: Bundle): Promise<string> {
  try {
    return await exchange(z, bundle);
  } catch (error) {
    throw error instanceof Error ? withoutSecrets(error, bundle) : error;
  }
}

/**
 * A fresh token to turn a hook off with; undefined when the service refuses the connection's key. Revoking a
 * key stops what it subscribed (the service deletes its v1 hooks and disables its v2 subscriptions), so a
 * Zap whose key was revoked can still be turned off: there is nothing left to stop.
 */
export async function tokenToUnsubscribe(z: ZObject, bundle: Bundle): Promise<string | undefined> {
  try {
    return await exchangeCredentials(z, bundle);
  } catch (error) {
    if (error instanceof Error && error.name === 'AppError' && codeOf(error) === INVALID_CREDENTIALS) {
      return undefined;
    }
    throw error;
  }
}

const INVALID_CREDENTIALS = 'invalid_credentials';

/** The code of a Zapier error (its message is the JSON of message, code and status). */
function codeOf(error: Error): string | undefined {
  try {
    return (JSON.parse(error.message) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

async function exchange(z: ZObject, bundle: Bundle): Promise<string> {
  const origin = originOf(bundle);
  const problem = serviceUrlProblem(origin);
  if (problem !== undefined) throw new z.errors.Error(redact(problem), 'invalid_origin', 400);
  const { LegacyClient } = await loadShared();
  const legacy = new LegacyClient({
    origin,
    email: String(bundle.authData['email'] ?? '').trim(),
    apiKey: String(bundle.authData['api_key'] ?? '').trim(),
    apiSecret: String(bundle.authData['api_secret'] ?? '').trim(),
    apiKeyName: String(bundle.authData['api_key_name'] ?? '').trim(),
    maxRetries: 0,
    fetch: zapierFetch(z),
  });
  try {
    return await legacy.getToken({ refresh: true });
  } catch (error) {
    if (isCredentialsRejection(error)) {
      throw new z.errors.Error(revokedKeyMessage(origin), INVALID_CREDENTIALS, 401);
    }
    const throttled = zapierCause(error, THROTTLED);
    if (throttled !== undefined) throw throttled;
    if (error instanceof ThreadworkError && error.status !== undefined && error.status >= 500) {
      throw new z.errors.Error(
        `The service could not sign in right now (HTTP ${error.status}). Try again in a few minutes.`,
        'service_unavailable',
        error.status,
      );
    }
    // Said once, with the origin once: the client's own message repeats the token call's URL.
    if (error instanceof ConnectionError || error instanceof TimeoutError) {
      const why =
        error instanceof TimeoutError ? 'it did not answer in time' : NO_ANSWER_WORDS[whyNoAnswer(error)];
      throw new z.errors.Error(
        redact(`Could not reach the service at ${origin}: ${why}. ${CHECK_URL}`),
        'service_unreachable',
      );
    }
    throw new z.errors.Error(
      redact(
        `${origin} is not the service, or did not answer as the service does (${describe(error)}). ${CHECK_URL}`,
      ),
      'not_the_service',
      error instanceof ThreadworkError ? error.status : undefined,
    );
  }
}

const CHECK_URL = 'Check the Service URL: the address you open the service at, e.g. https://app.example.com.';

/** A 401 (core raises it as `RefreshAuthError` inside `z.request`) or a credential refused by its schema. */
function isCredentialsRejection(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current.name === 'RefreshAuthError' || current instanceof AuthenticationError) return true;
    if (current instanceof RequestValidationError) return true;
    if (current instanceof ValidationError && current.status === 400) return true;
    current = current.cause;
  }
  return false;
}

function describe(error: unknown): string {
  if (error instanceof NotFoundError || (error instanceof ThreadworkError && error.status === 404)) {
    return `${TOKEN_PATH} answered 404`;
  }
  if (error instanceof ThreadworkError && error.status !== undefined) return `HTTP ${error.status}`;
  return 'its answer could not be read';
}

/** Whether `url` is the token endpoint (which must never receive a session token). */
export function isTokenEndpoint(url: string | undefined): boolean {
  if (url === undefined || !URL.canParse(url)) return false;
  return new URL(url).pathname.replace(/\/+$/, '').endsWith(TOKEN_PATH);
}

/** True when the token is missing or expires within the refresh margin (the shared token lifecycle's). */
export function tokenIsStale(token: string | undefined, now: number = Date.now()): boolean {
  return tokenNeedsRefresh(token, now);
}

/**
 * beforeRequest: the session token on every request but the token call. A token given explicitly (a freshly
 * minted one) is kept; a stale one raises `RefreshAuthError` before the doomed request is sent.
 */
export const addSessionToken: BeforeRequestMiddleware = (request, z, bundle) => {
  const headers = request.headers ?? {};
  request.headers = headers;
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === TOKEN_HEADER && name !== TOKEN_HEADER) {
      headers[TOKEN_HEADER] ??= headers[name] as string;
      delete headers[name];
    }
  }
  if (isTokenEndpoint(request.url)) {
    delete headers[TOKEN_HEADER];
    return request;
  }
  const token = headers[TOKEN_HEADER] || bundle.authData['sessionKey'];
  if (tokenIsStale(token)) {
    throw new z.errors.RefreshAuthError(
      'The session token is missing or has expired; renewing it (when testing locally with `zapier-platform invoke`, run `zapier-platform invoke auth refresh`).',
    );
  }
  headers[TOKEN_HEADER] = token as string;
  return request;
};

/**
 * The connection test: `GET /v2/me`, whose display name and email label the connection. Zapier runs it
 * right after the exchange, with the new token. Run before any exchange (`zapier-platform invoke auth test`
 * on a `.env` holding just the connection's fields), it makes the exchange itself; an expired token still
 * asks for a refresh, as on every request.
 */
const test = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
  const stored = bundle.authData['sessionKey'];
  const token = stored === undefined || stored === '' ? await exchangeCredentials(z, bundle) : undefined;
  const me = await (await v2Client(z, bundle, token === undefined ? {} : { token })).me.get();
  return { user_id: me.user_id, email: me.email, display_name: me.display_name };
});

export default {
  type: 'session',
  fields: [
    {
      key: 'origin',
      label: 'Service URL',
      required: true,
      type: 'string',
      helpText:
        'The address you open the service at, e.g. `https://app.example.com`; any page of it works too (its address is taken from the start), and `https://` is added when left out.',
    },
    {
      key: 'email',
      label: 'Email',
      required: true,
      type: 'string',
      helpText: 'The login email the API key was created with, e.g. `ada@example.com`.',
    },
    {
      key: 'api_key',
      label: 'API Key',
      required: true,
      type: 'string',
      helpText:
        "The API key from your account's API keys (or the extension's API tab), e.g. `a1b2c3d4e5f6`. Tick the permissions your Zaps need when you create it, e.g. Send email.",
    },
    {
      key: 'api_secret',
      label: 'API Secret',
      required: true,
      type: 'password',
      helpText: 'The secret shown once when the key was created, e.g. `f6e5d4c3b2a1`.',
    },
    {
      key: 'api_key_name',
      label: 'API Key Name',
      required: true,
      type: 'string',
      helpText: 'The name given to the key when it was created, e.g. `Zapier`.',
    },
  ],
  sessionConfig: {
    perform: async (z: ZObject, bundle: Bundle) => ({ sessionKey: await exchangeCredentials(z, bundle) }),
  },
  test,
  connectionLabel: async (_z: ZObject, bundle: Bundle) => {
    const { display_name, email } = bundle.inputData as {
      display_name?: string | null;
      email?: string | null;
    };
    return [display_name, email ? `(${email})` : undefined].filter(Boolean).join(' ');
  },
} satisfies Authentication;
