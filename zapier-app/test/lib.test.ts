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
import { originOf, v1Client, v2Client } from '../src/lib/clients.ts';
import { toZapierError } from '../src/lib/errors.ts';
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
    expect(message(new ConnectionError({ message: 'GET x failed: ECONNREFUSED' }))).toContain(
      'Check the service URL',
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
    ).toBe('Invalid input: title: must not be empty');
  });

  it('keeps the service message for an error it has no advice for, and passes Zapier errors through', () => {
    expect(message(new ThreadworkError({ message: 'the kettle is off', status: 418 }))).toBe(
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

  it('send through z.request with the middleware, one attempt, and read an empty answer', async () => {
    nock(ORIGIN).post('/api/v1/items/unsubscribe', { subscriptionId: 'sub_1' }).reply(200);
    await appTester(
      async (zObject: ZObject, bundle: Bundle) => v1Client(zObject, bundle).unsubscribe('items', 'sub_1'),
      {
        authData: authData(),
      },
    );
    expect(nock.isDone()).toBe(true);
    nock(ORIGIN)
      .get('/v2/me')
      .reply(503, { error: { code: 'internal_error', message: 'down' } });
    nock(ORIGIN)
      .get('/v2/me')
      .reply(200, { data: {}, meta: { request_id: 'r' } });
    const failure = await appTester(
      async (zObject: ZObject, bundle: Bundle) =>
        v2Client(zObject, bundle)
          .me.get()
          .then(
            () => 'answered',
            (error: ThreadworkError) => error.status,
          ),
      { authData: authData() },
    );
    expect(failure).toBe(503);
    // The second interceptor is still there: nothing retried.
    expect(nock.pendingMocks()).toHaveLength(1);
  });
});
