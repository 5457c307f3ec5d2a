import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { task } from '../../src/creates/resources.ts';
import { DEDUPE_KEY, onceKey } from '../../src/lib/idempotency.ts';
import { App } from '../helpers/auth.ts';
import { CREATE_CASES, caseName } from './cases.ts';
import { operationSuite } from './suite.ts';
import { envelope, errorBody, ORIGIN, perform, runKeyOf } from './support.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

operationSuite(CREATE_CASES);

describe('idempotency keys', () => {
  const complete = { method: 'POST' as const, path: '/v2/tasks/tsk_1/complete' };
  const done = envelope({ ...task.sample, id: 'tsk_1', completed: true, custom_fields: [] });

  /** Mocks `count` answers to complete tsk_1 (each `reply`), recording the Idempotency-Key of each request. */
  function recordKeys(replies: Array<{ status: number; body: unknown; headers?: Record<string, string> }>) {
    const keys: string[] = [];
    // Each interceptor answers once, in order; the one that matches records the key it was sent.
    for (const [index, reply] of replies.entries()) {
      nock(ORIGIN)
        .matchHeader('idempotency-key', (value: string | null) => {
          if (keys.length === index) keys.push(String(value));
          return true;
        })
        .post(complete.path)
        .reply(reply.status, reply.body as nock.Body, reply.headers ?? {});
    }
    return keys;
  }

  it('every action sends one key of its run on its write; reads carry none', () => {
    for (const entry of CREATE_CASES) {
      const writes = entry.requests.filter((request) => request.method !== 'GET');
      expect(String(writes[0]?.idempotencyKey), caseName(entry)).toBe(String(runKeyOf(entry.key)));
      for (const read of entry.requests.filter((request) => request.method === 'GET')) {
        expect(read.idempotencyKey, caseName(entry)).toBeUndefined();
      }
    }
  });

  it('each run of the same step acts anew: complete, complete again sends two different keys', async () => {
    const keys = recordKeys([
      { status: 200, body: done },
      { status: 200, body: done },
    ]);
    await perform('creates', 'complete_task', { task_id: 'tsk_1' });
    await perform('creates', 'complete_task', { task_id: 'tsk_1' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(runKeyOf('complete_task'));
    expect(keys[1]).not.toBe(keys[0]);
  });

  it.each([
    [
      'a 503',
      { status: 503, body: errorBody('service_unavailable', 'draining'), headers: { 'retry-after': '0' } },
    ],
    [
      'a 409 idempotency_in_progress',
      {
        status: 409,
        body: errorBody('idempotency_in_progress', 'still running'),
        headers: { 'retry-after': '0' },
      },
    ],
  ])(
    'a retry within one run after %s resends the same key, and the step acts once',
    async (_what, failure) => {
      const keys = recordKeys([failure, { status: 200, body: done }]);
      expect(await perform('creates', 'complete_task', { task_id: 'tsk_1' })).toMatchObject({
        completed: true,
      });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    },
  );

  it('a retry after a lost connection resends the same key', async () => {
    const seen = new Set<string>();
    const remember = (value: string | null) => {
      seen.add(String(value));
      return true;
    };
    const lost = nock(ORIGIN)
      .matchHeader('idempotency-key', remember)
      .post(complete.path)
      .replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const answered = nock(ORIGIN)
      .matchHeader('idempotency-key', remember)
      .post(complete.path)
      .reply(200, done);
    expect(await perform('creates', 'complete_task', { task_id: 'tsk_1' })).toMatchObject({
      completed: true,
    });
    lost.done();
    answered.done();
    expect([...seen]).toHaveLength(1);
    expect([...seen][0]).toMatch(runKeyOf('complete_task'));
  });

  it('Only Once Per: runs with the same value send the same key, whatever else they map; another value or action, another', () => {
    const first = onceKey('create_task', 'evt_1');
    expect(onceKey('create_task', 'evt_1')).toBe(first);
    expect(onceKey('create_task', 'evt_2')).not.toBe(first);
    expect(onceKey('create_task_from_thread', 'evt_1')).not.toBe(first);
    expect(onceKey('create_task', 'evt_1', 1)).not.toBe(first);
    expect(first).toMatch(/^zapier-create_task-once-[0-9a-f]{40}$/);
  });

  it('Only Once Per: a replayed run sends the same key twice (the service answers the first run again)', async () => {
    const keys = recordKeys([
      { status: 200, body: done },
      { status: 200, body: done, headers: { 'idempotent-replayed': 'true' } },
    ]);
    await perform('creates', 'complete_task', { task_id: 'tsk_1', dedupe_key: 'evt_1' });
    await perform('creates', 'complete_task', { task_id: 'tsk_1', dedupe_key: 'evt_1' });
    expect(keys).toEqual([onceKey('complete_task', 'evt_1'), onceKey('complete_task', 'evt_1')]);
  });

  it.each([
    [
      'a replayed failure',
      {
        status: 402,
        body: errorBody('subscription_required', 'unpaid'),
        headers: { 'idempotent-replayed': 'true' },
      },
    ],
    [
      'the value spent on other inputs',
      { status: 409, body: errorBody('idempotency_conflict', 'other body') },
    ],
  ])('Only Once Per: after %s, the step runs anew under the next attempt’s key', async (_what, spent) => {
    const keys = recordKeys([spent, { status: 200, body: done }]);
    expect(
      await perform('creates', 'complete_task', { task_id: 'tsk_1', dedupe_key: 'evt_1' }),
    ).toMatchObject({
      completed: true,
    });
    expect(keys).toEqual([onceKey('complete_task', 'evt_1', 0), onceKey('complete_task', 'evt_1', 1)]);
  });

  it('Only Once Per: a failure answered for the first time is the answer (no second attempt)', async () => {
    const keys = recordKeys([{ status: 402, body: errorBody('subscription_required', 'unpaid') }]);
    await expect(
      perform('creates', 'complete_task', { task_id: 'tsk_1', dedupe_key: 'evt_1' }),
    ).rejects.toThrow(/no active paid subscription/);
    expect(keys).toHaveLength(1);
  });

  it('every action, and no search, offers Only Once Per, with help that says when to use it', () => {
    for (const [key, create] of Object.entries(App.creates ?? {})) {
      const field = (create.operation.inputFields as unknown as Array<Record<string, unknown>>).find(
        (candidate) => candidate['key'] === DEDUPE_KEY,
      );
      expect(field, key).toMatchObject({ label: 'Only Once Per', required: false });
      expect(String(field?.['helpText']), key).toMatch(/acts every time.*replays/);
    }
    for (const [key, search] of Object.entries(App.searches ?? {})) {
      const keys = (search.operation.inputFields as unknown as Array<Record<string, unknown>>).map(
        (f) => f['key'],
      );
      expect(keys, key).not.toContain(DEDUPE_KEY);
    }
  });
});
