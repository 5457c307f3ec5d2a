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
import { idempotencyKey } from '../src/lib/idempotency.ts';
import { appTester, authData, ORIGIN, zapierMessage } from './helpers/auth.ts';

const z = { errors: zapier.errors } as unknown as ZObject;
const message = (error: unknown) => zapierMessage(toZapierError(z, error));

afterEach(() => {
  nock.cleanAll();
});

describe('idempotencyKey', () => {
  it('is the same for the same operation and inputs, whatever their key order', () => {
    const a = idempotencyKey('create_task', { list_id: 'lst_1', title: 'Call Bob', notes: { b: 1, a: 2 } });
    const b = idempotencyKey('create_task', { notes: { a: 2, b: 1 }, title: 'Call Bob', list_id: 'lst_1' });
    expect(a).toBe(b);
  });

  it('ignores inputs left undefined, and differs for another operation or another input', () => {
    const base = idempotencyKey('create_task', { list_id: 'lst_1', title: 'Call Bob' });
    expect(idempotencyKey('create_task', { list_id: 'lst_1', title: 'Call Bob', notes: undefined })).toBe(
      base,
    );
    expect(idempotencyKey('create_board', { list_id: 'lst_1', title: 'Call Bob' })).not.toBe(base);
    expect(idempotencyKey('create_task', { list_id: 'lst_1', title: 'Call Rob' })).not.toBe(base);
    expect(base).toMatch(/^zapier-create_task-[0-9a-f]{40}$/);
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
