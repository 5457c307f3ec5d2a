/**
 * No credential in any error: every kind of failure, through both clients, against real sockets on loopback.
 * The servers here echo the whole request back (method, URL, headers, body), as a stray 404 page or a proxy's
 * error page does, so a credential the client sent is in every answer; none may reach the caller.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDACTED, Redactor, redactUrl } from '../src/client/redact.ts';
import {
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  LegacyClient,
  NotFoundError,
  ThreadworkClient,
  ThreadworkError,
  TimeoutError,
  ValidationError,
} from '../src/index.ts';

const EMAIL = 'ada@example.com';
const KEY_NAME = 'Zapier';
const API_KEY = 'Kq7Rt2Vw9Xz4Lm8Np3Bc';
const API_SECRET = 'Sx6Jh1Df5Gk0Pa9Qe4Wr';
const V2_KEY = 'twk_Zu3Yi8Oo2Ee7Aa6Uu1Ii5';
/** A session token as the service mints it: a JWT whose `exp` is an hour away. */
const SESSION_TOKEN = [
  Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
  Buffer.from(JSON.stringify({ sub: 'usr_ada', exp: Math.floor(Date.now() / 1000) + 3600 })).toString(
    'base64url',
  ),
  'Mv4Nc9Bx2Zl7Kj3Hg8Fd1Sa6Qw0Er5Ty',
].join('.');
const SECRETS = { API_KEY, API_SECRET, V2_KEY, SESSION_TOKEN };

type Kind = 'refused' | 'reset' | 'timeout' | '4xx' | '4xx-envelope' | '5xx' | 'bad-json' | 'fetch-throws';
const KINDS: readonly Kind[] = [
  'refused',
  'reset',
  'timeout',
  '4xx',
  '4xx-envelope',
  '5xx',
  'bad-json',
  'fetch-throws',
];
const TIMEOUT_MS = 150;

/** The whole request as text: what an echoing error page shows. */
async function echo(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${body}`;
}

/** Answers one failure of `kind`; `/auth/api_token` answers a token when `tokenWorks`. */
async function fail(kind: Kind, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const text = await echo(request);
  switch (kind) {
    case 'reset':
      request.socket.resetAndDestroy();
      return;
    case 'timeout':
      return; // never answers; the client gives up
    case '4xx':
      // Fastify's own not-found answer names the URL with its query string.
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ message: `Route ${text} not found`, error: 'Not Found', statusCode: 404 }),
      );
      return;
    case '4xx-envelope':
      response.writeHead(400, { 'content-type': 'application/json', 'x-echo': encodeURIComponent(text) });
      response.end(
        JSON.stringify({
          error: {
            code: 'validation_error',
            message: `Rejected ${text}`,
            details: [{ path: 'x', message: text }],
          },
        }),
      );
      return;
    case '5xx':
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'internal_error', message: text, details: { text } } }));
      return;
    case 'bad-json':
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<html><body>${'padding '.repeat(20)}${text}</body></html>`);
      return;
    default:
      throw new Error(`no server answer for ${kind}`);
  }
}

const servers: Server[] = [];
async function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let closedOrigin: string;
const origins = new Map<string, string>();

beforeAll(async () => {
  // A port that was just free and is closed again: connecting is refused.
  const closed = await listen(() => {});
  const last = servers.pop();
  await new Promise((resolve) => last?.close(resolve));
  closedOrigin = closed;
  for (const kind of ['reset', 'timeout', '4xx', '4xx-envelope', '5xx', 'bad-json'] as const) {
    for (const phase of ['token', 'call'] as const) {
      const origin = await listen((request, response) => {
        if (phase === 'call' && request.url?.startsWith('/auth/api_token')) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ 'x-access-token': SESSION_TOKEN }));
          return;
        }
        void fail(kind, request, response);
      });
      origins.set(`${kind}:${phase}`, origin);
    }
  }
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterAll(async () => {
  vi.restoreAllMocks();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A fetch that fails as node-fetch and Zapier's `z.request` do: a TypeError whose cause names the URL and
 * carries the request (with its headers) as a property.
 */
const throwingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const cause = Object.assign(new Error(`request to ${request.url} failed, reason: connect ECONNRESET`), {
    code: 'ECONNRESET',
    request,
    options: { url: request.url, headers: Object.fromEntries(request.headers) },
  });
  throw new TypeError(`fetch failed: ${request.url}`, { cause });
};

/** The origin and fetch that make `phase` of a call fail with `kind`. */
function failing(kind: Kind, phase: 'token' | 'call'): { origin: string; fetch?: typeof fetch } {
  if (kind === 'refused' || kind === 'fetch-throws') {
    const good = origins.get('4xx:call') as string; // its token endpoint answers a token
    const broken = kind === 'refused' ? closedOrigin : good;
    if (phase === 'token')
      return kind === 'refused' ? { origin: closedOrigin } : { origin: good, fetch: throwingFetch };
    // The token call succeeds; the call after it fails.
    return {
      origin: good,
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes('/auth/api_token')) return fetch(input, init);
        if (kind === 'fetch-throws') return throwingFetch(input, init);
        return fetch(url.replace(good, broken), init);
      },
    };
  }
  return { origin: origins.get(`${kind}:${phase}`) as string };
}

const EXPECTED: Record<Kind, new (...args: never[]) => ThreadworkError> = {
  refused: ConnectionError,
  reset: ConnectionError,
  'fetch-throws': ConnectionError,
  timeout: TimeoutError,
  '4xx': ThreadworkError,
  '4xx-envelope': ValidationError,
  '5xx': InternalServerError,
  'bad-json': InvalidResponseError,
};

/**
 * Every string reachable from a thrown value: own properties (non-enumerable and symbol-keyed too), getters
 * up the prototype chain, causes, requests, responses and headers hanging off it, and the value as
 * `String()`, its stack, `JSON.stringify` and `util.inspect` show it.
 */
function reachableStrings(root: unknown): string[] {
  const strings: string[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      strings.push(value);
      return;
    }
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 30) return;
    seen.add(value);
    if (value instanceof Headers) {
      value.forEach((item, name) => {
        strings.push(name, item);
      });
    }
    if (value instanceof Request || value instanceof Response) strings.push(value.url);
    if (value instanceof Map || value instanceof Set) for (const item of value) visit(item, depth + 1);
    if (value instanceof Error) {
      strings.push(String(value), inspect(value, { depth: null, showHidden: true }));
      strings.push(JSON.stringify(value) ?? '');
    }
    const read = (owner: object, key: PropertyKey) => {
      try {
        const descriptor = Object.getOwnPropertyDescriptor(owner, key);
        return descriptor && 'value' in descriptor ? descriptor.value : Reflect.get(owner, key, value);
      } catch {
        return undefined;
      }
    };
    for (const key of Reflect.ownKeys(value)) visit(read(value, key), depth + 1);
    for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; ) {
      for (const key of Reflect.ownKeys(proto)) {
        if (key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, key)?.get === 'function') {
          visit(read(proto, key), depth + 1);
        }
      }
      proto = Object.getPrototypeOf(proto);
    }
  };
  visit(root, 0);
  return strings;
}

/** Each secret, and every 8-character piece of it (a truncated snippet leaks too), in any spelling. */
function leaks(error: unknown): string[] {
  const haystack = reachableStrings(error).join('\n');
  const found: string[] = [];
  for (const [name, secret] of Object.entries(SECRETS)) {
    for (let start = 0; start + 8 <= secret.length; start++) {
      const piece = secret.slice(start, start + 8);
      if (haystack.includes(piece) || haystack.includes(encodeURIComponent(piece))) {
        found.push(`${name}: ${piece}`);
        break;
      }
    }
  }
  return found;
}

function legacy(target: { origin: string; fetch?: typeof fetch }) {
  return new LegacyClient({
    origin: target.origin,
    email: EMAIL,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    apiKeyName: KEY_NAME,
    maxRetries: 1,
    timeout: TIMEOUT_MS,
    fetch: target.fetch,
  });
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error,
  );
}

describe.each(KINDS)('a %s failure leaks no credential', (kind) => {
  it('v1: the token call (the key pair in its query string and body)', async () => {
    const error = await thrown(legacy(failing(kind, 'token')).teams());
    expect(error).toBeInstanceOf(EXPECTED[kind]);
    expect(leaks(error)).toEqual([]);
    const { message } = error as Error;
    if (kind === 'refused' || kind === 'timeout' || kind === 'reset' || kind === 'fetch-throws') {
      // The message still says which call failed, with whose key.
      expect(message).toContain(`/auth/api_token?email=ada%40example.com&api_key=${REDACTED}`);
      expect(message).toContain(`api_secret=${REDACTED}&api_key_name=Zapier`);
    }
  });

  it('v1: a call after the token call (the session token in x-access-token)', async () => {
    const client = legacy(failing(kind, 'call'));
    expect(await client.getToken()).toBe(SESSION_TOKEN);
    const error = await thrown(client.teams());
    expect(error).toBeInstanceOf(EXPECTED[kind]);
    expect(leaks(error)).toEqual([]);
  });

  it('v2: a v2 key secret (Authorization: Bearer)', async () => {
    const target = failing(kind, 'call');
    const client = new ThreadworkClient({
      baseUrl: `${target.origin}/v2`,
      apiKey: V2_KEY,
      maxRetries: 1,
      timeout: TIMEOUT_MS,
      fetch: target.fetch,
    });
    const error = await thrown(client.tasks.create({ list_id: 'lst_1', title: 'x' }));
    expect(error).toBeInstanceOf(EXPECTED[kind]);
    expect(leaks(error)).toEqual([]);
  });

  it('v2: over the legacy session token, renewed by the v1 client', async () => {
    const target = failing(kind, 'call');
    const session = legacy(target);
    const client = new ThreadworkClient({
      baseUrl: `${target.origin}/v2`,
      accessToken: (context) => session.getToken(context),
      maxRetries: 1,
      timeout: TIMEOUT_MS,
      fetch: target.fetch,
    });
    const error = await thrown(client.me.get());
    expect(error).toBeInstanceOf(EXPECTED[kind]);
    expect(leaks(error)).toEqual([]);
  });
});

describe('the redaction itself', () => {
  it('keeps parameter names and the non-secret parameters', () => {
    expect(
      redactUrl('https://h/auth/api_token?email=a%40b.c&api_key=k1&api_secret=s%2B1&api_key_name=Z'),
    ).toBe('https://h/auth/api_token?email=a%40b.c&api_key=***&api_secret=***&api_key_name=Z');
  });

  it('replaces every spelling of a credential, in nested data and causes, and keeps the class', () => {
    const secret = 'p@ss word/+';
    const redactor = new Redactor([secret]);
    const cause = Object.assign(new Error(`body ${JSON.stringify({ s: secret })}`), { code: 'E' });
    const error = new NotFoundError({
      message: `at ${encodeURIComponent(secret)} and ${new URLSearchParams({ s: secret })}`,
      status: 404,
      details: [{ text: secret }],
      cause,
    });
    const copy = redactor.error(error);
    expect(copy).toBeInstanceOf(NotFoundError);
    expect(copy.status).toBe(404);
    expect(copy.message).toBe('at *** and s=***');
    expect(copy.details).toEqual([{ text: '***' }]);
    expect((copy.cause as Error).message).toBe('body {"s":"***"}');
    expect((copy.cause as Error & { code: string }).code).toBe('E');
    expect(leaks(copy)).toEqual([]);
  });

  it('copies a DOMException (ky and AbortSignal time-outs) as an error of the same name', () => {
    const error = new DOMException(`timed out: https://h/?api_secret=${API_SECRET}`, 'TimeoutError');
    const copy = new Redactor([API_SECRET]).error(error);
    expect(copy.name).toBe('TimeoutError');
    expect(copy.message).toBe('timed out: https://h/?api_secret=***');
  });
});
