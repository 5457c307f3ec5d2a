import nock from 'nock';
import { App, appTester, authData as connection, FRESH_TOKEN, ORIGIN } from '../helpers/auth.ts';

/** The connection every nock test uses: a fresh (unexpired) session token, so no token call is made. */
export { appTester, ORIGIN };
export const TOKEN = FRESH_TOKEN;
export const authData = connection(TOKEN);

export type Kind = 'creates' | 'searches';

/** The key of one run of `operation` (a fresh random one per run; `variant` for a run's second write). */
export function runKeyOf(operation: string, variant?: string): RegExp {
  return new RegExp(`^zapier-${operation}-run-[0-9a-f-]{36}${variant === undefined ? '' : `-${variant}`}$`);
}

/** An action's or search's operation (perform, input fields) in the app; throws when there is none. */
export function operationOf(kind: Kind, key: string): { perform: unknown; inputFields: unknown[] } {
  const operations = App[kind] as unknown as Record<
    string,
    { operation: { perform: unknown; inputFields: unknown[] } }
  >;
  const operation = operations[key];
  if (operation === undefined) throw new Error(`the app has no ${kind}.${key}`);
  return operation.operation;
}

/** Runs an action's or search's perform through appTester, as Zapier would. */
export function perform(
  kind: Kind,
  key: string,
  inputData: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<unknown> {
  return appTester(operationOf(kind, key).perform as never, {
    authData,
    inputData,
    ...(meta === undefined ? {} : { meta }),
  });
}

/** The v2 success envelope around `data`. */
export function envelope(data: unknown, pagination?: { next_cursor: string | null; has_more: boolean }) {
  return {
    data,
    meta: {
      request_id: 'req_test',
      ...(pagination === undefined ? {} : { pagination: { ...pagination, limit: 50 } }),
    },
  };
}

/** The service's error envelope. */
export function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, request_id: 'req_error', ...(details === undefined ? {} : { details }) } };
}

/** One request the service expects, and its answer. */
export interface ExpectedRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with its query, e.g. `/v2/tasks?list_id=lst_todo&limit=200`. */
  path: string;
  /** The exact JSON body; undefined for none. */
  body?: unknown;
  /** The Idempotency-Key header it must carry (exactly, or matching); undefined: it must carry none. */
  idempotencyKey?: string | RegExp | undefined;
  status?: number;
  reply: unknown;
}

/**
 * Mocks the service for exactly these requests (each once, with the session token, the exact body and the
 * Idempotency-Key) and counts every request that reaches it, matched or not.
 */
export function mockService(requests: ExpectedRequest[]): { count(): number; done(): void } {
  let count = 0;
  const onRequest = () => {
    count++;
  };
  nock.emitter.on('no match', onRequest);
  const scopes = requests.map((expected) => {
    const [pathname = '', search = ''] = expected.path.split('?');
    const key = expected.idempotencyKey;
    // A read must carry no key at all; a write exactly its own.
    const base = key === undefined ? nock(ORIGIN, { badheaders: ['idempotency-key'] }) : nock(ORIGIN);
    const scope = (key === undefined ? base : base.matchHeader('idempotency-key', key))
      .matchHeader('x-access-token', TOKEN)
      .intercept(pathname, expected.method, (body: unknown) =>
        expected.body === undefined ? body === '' || body === undefined : deepEqual(body, expected.body),
      )
      // The exact query: every parameter, nothing more.
      .query(Object.fromEntries(new URLSearchParams(search)))
      .reply(expected.status ?? 200, expected.reply as nock.Body);
    scope.on('request', onRequest);
    return scope;
  });
  return {
    count: () => count,
    done: () => {
      nock.emitter.off('no match', onRequest);
      for (const scope of scopes) scope.done();
    },
  };
}

function deepEqual(left: unknown, right: unknown): boolean {
  return JSON.stringify(sortKeys(left)) === JSON.stringify(sortKeys(right));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
