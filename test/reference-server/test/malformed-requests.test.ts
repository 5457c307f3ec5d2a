// Every route, fed what a careless or hostile client sends: malformed and wrongly typed bodies, overlong
// strings, bad ids, bad query values, and raw malformed HTTP over a socket. Whatever comes in, the answer
// is below 500 and, when it is an error, the error envelope with the request's id. The routes are read
// from the app itself, so a route added anywhere is covered without touching this file. Seeded and
// bounded: the same few hundred requests on every run.
import { connect } from 'node:net';
import { fc, it } from '@fast-check/vitest';
import { ERROR_CODES } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type RouteSummary, routesOf } from '../src/app.ts';
import { type RunningServer, startServer } from '../src/index.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { offlineResolver } from './helpers/server.ts';

const SEED = 20261124;

let server: RunningServer;
let routes: readonly RouteSummary[];
let v1Token: string;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    ...(await freshDatabase()),
    seed: fixtureSeed,
    testControl: true,
    resolveHost: offlineResolver,
  });
  routes = routesOf(server.app);
  const token = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SECRETS.legacy),
  });
  v1Token = ((await token.json()) as Record<string, string>)['x-access-token']!;
});
afterAll(() => server.close());

const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** The property every answer must have. */
function expectWellFormed(status: number, requestId: string | null, body: unknown, what: string): void {
  expect(status, what).toBeLessThan(500);
  if (status < 400) return;
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  expect(error, `${what}: ${JSON.stringify(body)}`).toBeTypeOf('object');
  expect(KNOWN_CODES.has(String(error?.['code'])), `${what}: code ${String(error?.['code'])}`).toBe(true);
  expect(error?.['message'], what).toBeTypeOf('string');
  expect(error?.['request_id'], what).toMatch(/^req_/);
  expect(error?.['request_id'], what).toBe(requestId);
}

type Credentials = 'valid' | 'none' | 'garbage';

interface Probe {
  method: string;
  path: string;
  query: string;
  body: string | undefined;
  contentType: string | undefined;
  credentials: Credentials;
}

async function send(probe: Probe): Promise<void> {
  const headers: Record<string, string> = {};
  if (probe.credentials !== 'none') {
    const valid = probe.credentials === 'valid';
    if (probe.path.startsWith('/api/v1/')) headers['x-access-token'] = valid ? v1Token : 'not.a.token';
    else headers['authorization'] = `Bearer ${valid ? SECRETS.adaFull : 'tw_nonsense'}`;
  }
  if (probe.contentType !== undefined) headers['content-type'] = probe.contentType;
  const hasBody = probe.body !== undefined && probe.method !== 'GET';
  const response = await fetch(`${server.origin}${probe.path}${probe.query}`, {
    method: probe.method,
    headers,
    ...(hasBody ? { body: probe.body } : {}),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  const what = `${probe.method} ${probe.path}${probe.query} (${probe.credentials}) body=${String(probe.body).slice(0, 200)}`;
  expectWellFormed(response.status, response.headers.get('x-request-id'), body, what);
}

/** A route's pattern with each `:param` (and `*`) replaced by `value`. */
function fill(route: RouteSummary, value: string): string {
  return route.url.replace(/:[^/]+/g, value).replace(/\*/g, value);
}

// ---- arbitraries ----

/** What goes in a path segment, already as it travels (percent-encoded or deliberately not). */
const idSegment = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 101, max: 4000 }).map((length) => 'x'.repeat(length)),
  fc.constantFrom(
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%C0%AF',
    '%00',
    '%2F',
    '%2e%2e',
    '..',
    'null',
    'undefined',
    '-1',
    '0',
    '1e999',
    'tsk_1',
    'brd_acme',
    'lst_todo',
    'usr_ada',
    'team_acme',
    '18c2f0a1b2c3d4e5',
    'ffffffffffffffffffffffff',
  ),
);

const QUERY_KEYS = [
  'limit',
  'cursor',
  'list_id',
  'board_id',
  'team_id',
  'completed',
  'q',
  'status',
  'label',
  'thread_id',
  'api_key',
  'email',
];
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('-1', '0', '201', '1e9', 'NaN', 'true', 'yes', '%ZZ', '', 'x'.repeat(3000), '[]', '{}'),
  fc.integer().map(String),
);
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 }).map(encodeURIComponent)),
      queryValue,
    ),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`));

const FIELD_NAMES = [
  'title',
  'name',
  'list_id',
  'board_id',
  'team_id',
  'target_url',
  'events',
  'filters',
  'status',
  'custom_fields',
  'notes',
  'due_at',
  'completed',
  'assignee_id',
  'thread_ids',
  'position',
  'labels',
  'scopes',
  'type',
  'action',
  'entityId',
  'webhookURL',
  'subscriptionId',
  'email',
  'api_key',
  'api_secret',
  'mailbox',
  'message',
  'to',
  'subject',
  'body_text',
  'before_id',
  'after_id',
];
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.integer({ min: 1000, max: 70_000 }).map((length) => 'y'.repeat(length)),
  fc.constantFrom(null, -1, 1e308, '', '   ', 'tsk_1', 'lst_todo', 'https://public.example/hook', [], {}),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc
    .dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 5 })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{', '{"title":', '[1,2', 'null', '"text"', '{"a":1}}', '\u0000', '{"__proto__":{"x":1}}'),
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/json; charset=latin1',
      'application/jsonx',
      'multipart/form-data; boundary=x',
      '',
    ),
  },
);
const credentials = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Credentials>('valid') },
  { weight: 1, arbitrary: fc.constantFrom<Credentials>('none', 'garbage') },
);

describe('every route answers bad input below 500, in the envelope', () => {
  it('reads its routes from the app (so routes added elsewhere are covered)', () => {
    const urls = new Set(routes.map((route) => `${route.method} ${route.url}`));
    expect(urls.size).toBe(routes.length);
    for (const expected of [
      'GET /v2/tasks/:id',
      'POST /v2/webhooks/subscriptions',
      'POST /api/v1/items/subscribe',
    ]) {
      expect(urls.has(expected), expected).toBe(true);
    }
  });

  it.prop(
    {
      route: fc.nat(),
      id: idSegment,
      query,
      body,
      contentType,
      credentials,
    },
    { seed: SEED, numRuns: 300 },
  )(
    'random requests to random routes',
    async (input) => {
      const route = routes[input.route % routes.length]!;
      await send({
        method: route.method,
        path: fill(route, input.id),
        query: input.query,
        body: input.body,
        contentType: input.body === undefined ? undefined : input.contentType,
        credentials: input.credentials,
      });
    },
    60_000,
  );

  it('every route, with each kind of bad input', async () => {
    const bad: Array<Omit<Probe, 'method' | 'path'> & { id: string }> = [
      {
        id: 'x'.repeat(101),
        query: '',
        body: '{"title":',
        contentType: 'application/json',
        credentials: 'valid',
      },
      {
        id: 'x'.repeat(5000),
        query: '?limit=0',
        body: '[]',
        contentType: 'application/json',
        credentials: 'valid',
      },
      {
        id: '%ZZ',
        query: '?cursor=%ZZ',
        body: 'null',
        contentType: 'application/json',
        credentials: 'valid',
      },
      {
        id: 'tsk_1',
        query: '?limit=abc',
        body: '{"title":42,"name":[]}',
        contentType: 'application/json',
        credentials: 'valid',
      },
      {
        id: 'tsk_1',
        query: '',
        body: 'title=x',
        contentType: 'application/x-www-form-urlencoded',
        credentials: 'valid',
      },
      { id: 'unknown', query: '', body: '{}', contentType: 'application/json', credentials: 'none' },
    ];
    for (const route of routes) {
      for (const probe of bad) {
        await send({ ...probe, method: route.method, path: fill(route, probe.id) });
      }
    }
  }, 60_000);

  it('refuses the NUL character: a 404 in a path id, a validation_error in a query or a body', async () => {
    const headers = { authorization: `Bearer ${SECRETS.adaFull}`, 'content-type': 'application/json' };
    const read = async (response: Response) => ({
      status: response.status,
      error: ((await response.json()) as { error: { code: string; details?: unknown } }).error,
    });
    expect(await read(await fetch(`${server.origin}/v2/tasks/tsk%001`, { headers }))).toMatchObject({
      status: 404,
      error: { code: 'not_found' },
    });
    expect(await read(await fetch(`${server.origin}/v2/tasks?list_id=lst%00`, { headers }))).toMatchObject({
      status: 400,
      error: { code: 'validation_error', details: [{ path: 'list_id' }] },
    });
    const body = JSON.stringify({ team_id: 'team_acme', name: 'Pipe\u0000line', lists: [] });
    expect(body).toContain('\\u0000');
    expect(
      await read(await fetch(`${server.origin}/v2/boards`, { method: 'POST', headers, body })),
    ).toMatchObject({ status: 400, error: { code: 'validation_error', details: [{ path: 'name' }] } });
  });

  it('answers an unknown id of any length as it answers a short one: 404 not_found', async () => {
    const byId = routes.filter((route) => route.method === 'GET' && /^\/v2\/[a-z-]+\/:id$/.test(route.url));
    expect(byId.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/v2/tasks/:id', '/v2/boards/:id', '/v2/teams/:id']),
    );
    const answer = async (route: RouteSummary, length: number) => {
      const response = await fetch(`${server.origin}${fill(route, 'q'.repeat(length))}`, {
        headers: { authorization: `Bearer ${SECRETS.adaFull}` },
      });
      const { error } = (await response.json()) as { error: { code: string; request_id: string } };
      expect(error.request_id).toBe(response.headers.get('x-request-id'));
      return `${response.status} ${error.code}`;
    };
    for (const route of byId) {
      const short = await answer(route, 5);
      // Some resources answer a precondition first (a mailbox that is not connected): the same for any id.
      if (['/v2/tasks/:id', '/v2/boards/:id', '/v2/teams/:id'].includes(route.url))
        expect(short).toBe('404 not_found');
      for (const length of [100, 101, 1000, 10_000]) {
        expect(await answer(route, length), `${route.url} with an id of ${length}`).toBe(short);
      }
    }
  });
});

// ---- raw HTTP over a socket ----

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes and reads what comes back. Once a whole answer is in, or nothing has come for `idleMs`
 * (the server waits for more of an incomplete request), the client half-closes; it then reads until
 * the server closes (or 5 s pass). Half-closing at once would make Node abort a request still running.
 */
function exchange(bytes: Buffer | string, idleMs = 50): Promise<Buffer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    const hardStop = setTimeout(() => socket.destroy(), 5000);
    let idle: NodeJS.Timeout | undefined;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      socket.end();
    };
    const waitIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(end, idleMs);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      let whole = false;
      try {
        whole = parseAnswers(Buffer.concat(chunks)).length > 0;
      } catch {
        // not whole yet
      }
      if (whole) end();
      else waitIdle();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(hardStop);
      clearTimeout(idle);
      resolve(Buffer.concat(chunks));
    });
    socket.write(bytes, waitIdle);
  });
}

/** Every final answer in what came back (interim 1xx answers skipped). */
function parseAnswers(raw: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = raw.toString('latin1');
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`an incomplete answer: ${JSON.stringify(rest.slice(0, 200))}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const match = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '');
    if (!match) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(match[1]);
    rest = rest.slice(end + 4);
    if (status < 200) continue;
    const length = Number(headers['content-length'] ?? 0);
    if (headers['transfer-encoding'] === 'chunked') throw new Error('a chunked answer');
    if (rest.length < length) throw new Error('an answer cut short');
    answers.push({ status, headers, body: Buffer.from(rest.slice(0, length), 'latin1').toString('utf8') });
    rest = rest.slice(length);
  }
  return answers;
}

function expectRawWellFormed(raw: Buffer, sent: string): void {
  for (const answer of parseAnswers(raw)) {
    let body: unknown = answer.body;
    try {
      body = JSON.parse(answer.body);
    } catch {
      // left as text: fine for a success answer, caught below for an error
    }
    expectWellFormed(
      answer.status,
      answer.headers['x-request-id'] ?? null,
      body,
      JSON.stringify(sent.slice(0, 300)),
    );
  }
}

const token = fc.string({
  minLength: 1,
  maxLength: 12,
  unit: fc.constantFrom(...'GETPOSTDLAHCUX-_/ \t\u0000\u007f%:'),
});
const requestLine = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'TRACE', 'CONNECT'),
        token,
      ),
      fc.oneof(
        fc.constantFrom('/', '/v2/teams', '/v2/tasks/%ZZ', '*', 'http://x/v2/me', '//', '/api/v1/teams'),
        fc.string({ maxLength: 40 }).map((text) => `/v2/${text}`),
        fc.integer({ min: 100, max: 20_000 }).map((length) => `/v2/tasks/${'a'.repeat(length)}`),
      ),
      fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', 'HTTP/1', '', 'http/1.1'),
    )
    .map(([method, target, version]) => `${method} ${target} ${version}`.trimEnd()),
  fc.string({ maxLength: 60 }),
);
const headerLine = fc.oneof(
  fc.constantFrom(
    'Host: x',
    'Content-Type: application/json',
    'Content-Length: 5',
    'Content-Length: -1',
    'Content-Length: 1, 2',
    'Content-Length: 99999999999999999999',
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked',
    'Expect: 100-continue',
    'Expect: the-impossible',
    `Authorization: Bearer ${SECRETS.adaFull}`,
    'Connection: close',
    'X-Bad\u0000: 1',
    ' Folded: line',
    'NoColon',
  ),
  fc
    .tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 }))
    .map(([name, value]) => `${name}: ${value}`),
  fc.integer({ min: 1000, max: 20_000 }).map((length) => `X-Long: ${'h'.repeat(length)}`),
);
const rawBody = fc.oneof(
  fc.constant(''),
  fc.constantFrom('{}', '{"title":', '0\r\n\r\n', 'ZZ\r\nxx\r\n', '5\r\nhello\r\n0\r\n\r\n'),
  fc.string({ maxLength: 40 }),
);
const rawRequest = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(requestLine, fc.array(headerLine, { maxLength: 5 }), rawBody)
      .map(
        ([line, headers, content]) =>
          `${line}\r\n${headers.map((header) => `${header}\r\n`).join('')}\r\n${content}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  },
);

describe('raw malformed HTTP answers below 500, in the envelope', () => {
  it.prop([rawRequest], { seed: SEED, numRuns: 150 })(
    'random request lines, headers and bodies',
    async (sent) => {
      expectRawWellFormed(await exchange(Buffer.from(sent, 'latin1')), sent);
    },
    60_000,
  );

  async function single(sent: string): Promise<RawAnswer> {
    const answers = parseAnswers(await exchange(sent, 1000));
    expect(answers).toHaveLength(1);
    const answer = answers[0]!;
    const body = JSON.parse(answer.body) as { error: { code: string; request_id: string } };
    expect(body.error.request_id).toBe(answer.headers['x-request-id']);
    return { ...answer, body: body.error.code };
  }

  it.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'invalid_request'],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    [
      'bad percent-encoding in the path',
      'GET /v2/tasks/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'headers over 16 KiB',
      `GET / HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'invalid_request',
    ],
    [
      'a request line over 16 KiB',
      `GET /v2/tasks/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
      'invalid_request',
    ],
    [
      'an expectation other than 100-continue',
      'POST /v2/boards HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}',
      417,
      'invalid_request',
    ],
    ['no Host header', 'GET /v2/teams HTTP/1.1\r\n\r\n', 400, 'invalid_request'],
    [
      'a broken chunked body',
      'POST /v2/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
      400,
      'invalid_request',
    ],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /v2/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'invalid_request',
    ],
    ['a request cut off in its headers', 'GET / HTTP/1.1\r\nHo', 400, 'invalid_request'],
    [
      'a declared body over 1 MiB',
      'POST /v2/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{}',
      413,
      'payload_too_large',
    ],
    [
      'an over-long unknown id',
      `GET /v2/tasks/${'a'.repeat(150)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRETS.adaFull}\r\n\r\n`,
      404,
      'not_found',
    ],
  ])('%s', async (_what, sent, status, code) => {
    const answer = await single(sent);
    expect(answer.status).toBe(status);
    expect(answer.body).toBe(code);
  });

  it('never answers a malformed request in the place of an earlier, pipelined one', async () => {
    const answers = parseAnswers(
      await exchange(
        `GET /v2/teams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRETS.adaFull}\r\n\r\nGARBAGE\r\n\r\n`,
        1000,
      ),
    );
    // The first answer, if the connection lived to send it, is the first request's.
    expect(answers.length).toBeLessThanOrEqual(1);
    if (answers[0]) expect(answers[0].status).toBe(200);
  });

  it('meets Expect: 100-continue and goes on', async () => {
    const answers = parseAnswers(
      await exchange(
        `POST /v2/boards HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SECRETS.adaFull}\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        1000,
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([400]);
    expect(JSON.parse(answers[0]!.body).error.code).toBe('validation_error');
  });
});
