import {
  ConnectionError,
  errorFromResponse,
  RequestValidationError,
  ThreadworkError,
  TimeoutError,
} from '@threadwork/shared';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import zapier, { type Bundle, type ZObject } from 'zapier-platform-core';
import { originOf, serviceUrlProblem, v1Client, v2Client } from '../src/lib/clients.ts';
import { redact, toZapierError, withoutSecrets, zapierCause } from '../src/lib/errors.ts';
import { onceKey, runKey, stableJson } from '../src/lib/idempotency.ts';
import { appTester, authData, ORIGIN, zapierMessage } from './helpers/auth.ts';

const z = { errors: zapier.errors } as unknown as ZObject;
const message = (error: unknown) => zapierMessage(toZapierError(z, error));

afterEach(() => {
  nock.cleanAll();
});

describe('idempotency keys', () => {
  it('a run key is new for every run, and names the operation', () => {
    expect(runKey('create_task')).not.toBe(runKey('create_task'));
    expect(runKey('create_task')).toMatch(/^zapier-create_task-run-[0-9a-f-]{36}$/);
    expect(runKey('reorder_task', 'r1', 'retry')).toBe('zapier-reorder_task-run-r1-retry');
  });

  it('an Only Once Per key depends on the operation, the value and the attempt only', () => {
    const base = onceKey('create_task', 'evt_1');
    expect(onceKey('create_task', 'evt_1', 0)).toBe(base);
    expect(onceKey('create_board', 'evt_1')).not.toBe(base);
    expect(onceKey('create_task', 'evt_2')).not.toBe(base);
    expect(onceKey('create_task', 'evt_1', 1)).not.toBe(base);
    expect(base).toMatch(/^zapier-create_task-once-[0-9a-f]{40}$/);
  });

  it('stableJson sorts keys and leaves out undefined values', () => {
    expect(stableJson({ b: 1, a: { d: undefined, c: 2 } })).toBe('{"a":{"c":2},"b":1}');
  });
});

describe('toZapierError', () => {
  it('says what to fix for failures without an answer and for inputs refused before sending', () => {
    expect(message(new ConnectionError({ message: 'GET x failed: ECONNREFUSED' }))).toBe(
      "Could not reach the service: the connection was refused. Check the connection's Service URL, or run the step again once the service is back.",
    );
    expect(message(new TimeoutError({ message: 'slow' }))).toContain('did not answer in time');
    expect(
      message(
        new RequestValidationError({
          message: 'bad',
          code: 'validation_error',
          details: [{ path: 'title', message: 'must not be empty' }],
        }),
      ),
    ).toBe('Title: must not be empty');
  });

  it('names inputs by their labels, in plain words, and says which id was not found', () => {
    const context = {
      labels: { list_id: 'List', due_at: 'Due Date', assignee_email: 'Assignee Email' },
      types: { due_at: 'datetime' },
      inputs: { list_id: 'lst_x', due_at: 'someday' },
    };
    const withContext = (error: unknown) => zapierMessage(toZapierError(z, error, context));
    expect(
      withContext(
        errorFromResponse(404, { error: { code: 'not_found', message: 'list lst_x was not found' } }),
      ),
    ).toBe('List `lst_x` was not found, or this account cannot see it: pick it again from List.');
    const invalid = errorFromResponse(400, {
      error: {
        code: 'validation_error',
        message: 'due_at: Invalid ISO datetime',
        details: [
          { path: 'due_at', message: 'Invalid ISO datetime' },
          { path: 'assigneeEmail', message: 'Invalid email address' },
        ],
      },
    });
    const text = withContext(invalid);
    expect(text).toBe(
      "Due Date: use a date like 2026-03-01 or 'next Friday 5pm'; Assignee Email: use an email address like bob@example.com",
    );
    expect(text).not.toMatch(/ISO|due_at|assigneeEmail|Idempotency/);
  });

  it('says exactly how to get a key that may send email', () => {
    const text = message(
      errorFromResponse(403, {
        error: {
          code: 'insufficient_scope',
          message: 'this key lacks the scope email.send',
          details: { required_scopes: ['email.send'] },
        },
      }),
    );
    expect(text).toBe(
      'The connected API key lacks the "Send email" permission (email.send), which this step needs. A key has ' +
        '"Send email" only when it is ticked at creation. Create a key with "Send email" ticked in your account\'s ' +
        "API keys (or in the extension's API tab), then reconnect this Zapier connection with the new key: its API " +
        'key, secret and name.',
    );
    const withOrigin = zapierMessage(
      toZapierError(
        z,
        errorFromResponse(403, {
          error: {
            code: 'insufficient_scope',
            message: 'x',
            details: { required_scopes: ['webhooks.manage'] },
          },
        }),
        { labels: {}, inputs: {}, origin: 'https://app.example.com' },
      ),
    );
    expect(withOrigin).toContain(
      'lacks the "Manage webhooks" permission (webhooks.manage), which this step needs. Create a key with ' +
        '"Manage webhooks" ticked in your account\'s API keys at https://app.example.com/keys (or in the extension\'s API tab), then',
    );
    for (const shown of [text, withOrigin]) expect(shown).not.toMatch(/console|yourself|reference/i);
  });

  it('says a 5xx in plain words with its request ID, never the HTML a gateway answered', () => {
    const gateway = errorFromResponse(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {
      'x-request-id': 'req_gw1',
    });
    expect(message(gateway)).toBe(
      'The service failed (HTTP 502, request ID req_gw1): a gateway in front of the service got no proper answer from it. Try the step again in a few minutes.',
    );
    const internal = errorFromResponse(500, {
      error: { code: 'internal_error', message: 'boom', request_id: 'req_500' },
    });
    expect(message(internal)).toBe(
      'The service failed (HTTP 500, request ID req_500): the service ran into an internal error. Try the step again in a few minutes.',
    );
    const page = errorFromResponse(404, '<!doctype html><title>Not here</title>');
    expect(message(page)).toMatch(
      /^The service URL answered HTTP 404 with something that is not the service's API/,
    );
    for (const error of [gateway, page]) expect(message(error)).not.toMatch(/<|html/i);
  });

  it('names a length the service refused by the input’s label', () => {
    const long = errorFromResponse(400, {
      error: {
        code: 'validation_error',
        message: 'title: at most 1,024 characters',
        details: [{ path: 'title', message: 'at most 1,024 characters' }],
      },
    });
    expect(zapierMessage(toZapierError(z, long, { labels: { title: 'Title' }, inputs: {} }))).toBe(
      'Title: at most 1,024 characters',
    );
  });

  it('shows no credential: URLs lose their query and user part, and the connection’s secrets are cut out', () => {
    const leak = new ConnectionError({
      message: `POST ${ORIGIN}/auth/api_token?email=ada%40example.com&api_key=k1a2b3c4&api_secret=s5e6c7r8 failed`,
    });
    expect(redact(leak.message)).toBe(`POST ${ORIGIN}/auth/api_token failed`);
    expect(redact('see https://ada:s5e6c7r8@host.test/x')).toBe('see https://host.test/x');
    const error = withoutSecrets(new Error('the secret s5e6c7r8 and key k1a2b3c4'), {
      authData: authData(),
    } as unknown as Bundle);
    expect(error.message).toBe('the secret … and key …');
  });

  it('keeps the service message for an error it has no advice for, and passes Zapier errors through', () => {
    expect(message(new ThreadworkError({ message: 'the kettle is off', status: 418, code: 'teapot' }))).toBe(
      'the kettle is off',
    );
    const refresh = new zapier.errors.RefreshAuthError('expired');
    expect(toZapierError(z, new ConnectionError({ message: 'wrapped', cause: refresh }))).toBe(refresh);
    expect(
      toZapierError(z, errorFromResponse(401, { error: { code: 'unauthenticated', message: 'x' } })).name,
    ).toBe('RefreshAuthError');
  });
});

describe('clients over z.request', () => {
  it('take the origin with or without an API root pasted after it', () => {
    const origin = (value: string) => originOf({ authData: { origin: value } } as unknown as Bundle);
    expect(origin(' https://host.test/ ')).toBe('https://host.test');
    expect(origin('https://host.test/v2')).toBe('https://host.test');
    expect(origin('https://host.test/api/v1/')).toBe('https://host.test');
  });

  it('take the origin of a pasted page, add https:// when the scheme is missing (http:// for loopback)', () => {
    const origin = (value: string) => originOf({ authData: { origin: value } } as unknown as Bundle);
    expect(origin('https://app.example.com/mail/18c2f0a1b2c3d4e5?x=1#y')).toBe('https://app.example.com');
    expect(origin('app.example.com/boards/brd_1')).toBe('https://app.example.com');
    expect(origin('app.example.com:8443')).toBe('https://app.example.com:8443');
    expect(origin('https://ada:pw@app.example.com/x')).toBe('https://app.example.com');
    expect(origin('localhost:8787/mail')).toBe('http://localhost:8787');
    expect(origin('127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(origin('[::1]:8787')).toBe('http://[::1]:8787');
    expect(origin('http://127.0.0.1:8787/v2')).toBe('http://127.0.0.1:8787');
    expect(serviceUrlProblem('http://127.0.0.1:8787')).toBeUndefined();
    expect(serviceUrlProblem('https://app.example.com')).toBeUndefined();
    expect(serviceUrlProblem('http://app.example.com')).toMatch(/uses http:\/\/.*unencrypted/);
    expect(serviceUrlProblem('ftp://app.example.com')).toMatch(/is not a web address/);
  });

  it('send through z.request with the middleware, retry a 5xx within the run, and read an empty answer', async () => {
    nock(ORIGIN).post('/api/v1/items/unsubscribe', { subscriptionId: 'sub_1' }).reply(200);
    await appTester(
      async (zObject: ZObject, bundle: Bundle) =>
        (await v1Client(zObject, bundle)).unsubscribe('items', 'sub_1'),
      {
        authData: authData(),
      },
    );
    expect(nock.isDone()).toBe(true);
    nock(ORIGIN)
      .get('/api/v1/teams')
      .reply(503, { error: { code: 'internal_error', message: 'down' } });
    nock(ORIGIN).get('/api/v1/teams').reply(200, []);
    const failure = await appTester(
      async (zObject: ZObject, bundle: Bundle) =>
        (await v1Client(zObject, bundle)).teams().then(
          () => 'answered',
          (error: ThreadworkError) => error.status,
        ),
      { authData: authData() },
    );
    expect(failure).toBe('answered');
    expect(nock.pendingMocks()).toHaveLength(0);
  });

  it('pass Zapier’s own 401 and 429 on without retrying them', async () => {
    for (const status of [401, 429]) {
      nock(ORIGIN)
        .get('/v2/me')
        .reply(status, {
          error: { code: status === 401 ? 'unauthenticated' : 'rate_limited', message: 'x' },
        });
      nock(ORIGIN)
        .get('/v2/me')
        .reply(200, { data: {}, meta: { request_id: 'r' } });
      const error = await appTester(
        async (zObject: ZObject, bundle: Bundle) => (await v2Client(zObject, bundle)).me.get(),
        { authData: authData() },
      ).catch((caught: Error) => caught);
      expect(zapierCause(error)?.name).toBe(status === 401 ? 'RefreshAuthError' : 'ThrottledError');
      expect(nock.pendingMocks()).toHaveLength(1);
      nock.cleanAll();
    }
  });
});
