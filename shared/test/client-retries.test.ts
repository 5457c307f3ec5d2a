import nock from 'nock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpClient, RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS, retryDelay } from '../src/client/http.ts';
import {
  ConnectionError,
  IdempotencyConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitedError,
  ThreadworkClient,
  ThreadworkError,
  TimeoutError,
  ValidationError,
} from '../src/index.ts';
import {
  type Answer,
  API_KEY,
  BASE_URL,
  errorAnswer,
  expectRequests,
  me,
  ORIGIN,
  task,
  UUID,
} from './client-fixtures.ts';

const ok = (data: unknown): Answer => ({ body: { data, meta: { request_id: 'req_ok' } } });

function client(options: Partial<ConstructorParameters<typeof ThreadworkClient>[0]> = {}) {
  return new ThreadworkClient({ baseUrl: BASE_URL, apiKey: API_KEY, ...options });
}

/** Lets real I/O (nock's answers) happen while timers are fake; bounded. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !condition(); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(condition()).toBe(true);
}

beforeAll(() => {
  nock.disableNetConnect();
});

beforeEach(() => {
  // Full jitter picks a wait in [0, backoff): pinning the draw to 0 makes backoff retries immediate.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  nock.cleanAll();
});

describe('which failures are retried', () => {
  it('retries a GET on 5xx and resolves with the later answer', async () => {
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(503, 'internal_error'),
      errorAnswer(502, 'internal_error'),
      ok(me()),
    ]);
    expect((await client().me.get()).user_id).toBe('usr_ada');
    expect(recorded).toHaveLength(3);
  });

  it('makes exactly maxRetries + 1 attempts, then throws the last error', async () => {
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(500, 'internal_error'),
      errorAnswer(500, 'internal_error'),
      errorAnswer(500, 'internal_error'),
      ok(me()),
    ]);
    const error = await client({ maxRetries: 2 })
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(recorded).toHaveLength(3);
    expect(nock.pendingMocks()).toHaveLength(1);
  });

  it('does not retry when maxRetries is 0', async () => {
    const recorded = expectRequests('GET', '/v2/me', [errorAnswer(503, 'internal_error'), ok(me())]);
    await expect(client({ maxRetries: 0 }).me.get()).rejects.toBeInstanceOf(InternalServerError);
    expect(recorded).toHaveLength(1);
  });

  it.each([
    [400, 'validation_error', ValidationError],
    [404, 'not_found', NotFoundError],
    [409, 'idempotency_conflict', IdempotencyConflictError],
  ] as const)('never retries %i %s', async (status, code, ErrorClass) => {
    const recorded = expectRequests('POST', '/v2/tasks', [errorAnswer(status, code), ok(task())]);
    await expect(client().tasks.create({ list_id: 'lst_1', title: 'x' })).rejects.toBeInstanceOf(ErrorClass);
    expect(recorded).toHaveLength(1);
  });

  it('never retries 501, which a retry cannot change', async () => {
    const recorded = expectRequests('GET', '/v2/me', [{ status: 501, body: 'Not Implemented' }, ok(me())]);
    await expect(client().me.get()).rejects.toMatchObject({ status: 501 });
    expect(recorded).toHaveLength(1);
  });

  it('retries a network error on a GET', async () => {
    const scope = nock(ORIGIN).get('/v2/me').replyWithError('socket hang up');
    const recorded = expectRequests('GET', '/v2/me', [ok(me())]);
    expect((await client().me.get()).user_id).toBe('usr_ada');
    expect(scope.isDone()).toBe(true);
    expect(recorded).toHaveLength(1);
  });

  it('gives a ConnectionError when the network keeps failing', async () => {
    nock(ORIGIN).get('/v2/me').times(3).replyWithError('connect ECONNREFUSED');
    const error = await client()
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).status).toBeUndefined();
    expect((error as ConnectionError).message).toContain('ECONNREFUSED');
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('times out each attempt, retries, and ends with a TimeoutError', async () => {
    let attempts = 0;
    // Never answers; gives up only when the client aborts.
    const hangingFetch: typeof fetch = (_input, init) => {
      attempts++;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    };
    const error = await client({ fetch: hangingFetch, timeout: 20, maxRetries: 1 })
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('timed out after 20 ms');
    expect(attempts).toBe(2);
  });

  it('lets a per-call timeout override the client one', async () => {
    const hangingFetch: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    const error = await client({ fetch: hangingFetch, timeout: 60_000, maxRetries: 0 })
      .me.get({ timeout: 10 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('does not retry a write that carries no Idempotency-Key (it could run twice)', async () => {
    const recorded = expectRequests('POST', '/v2/tasks', [errorAnswer(503, 'internal_error'), ok(task())]);
    const http = new HttpClient({ headers: {}, maxRetries: 2 });
    await expect(
      http.send({ method: 'POST', url: `${BASE_URL}/tasks`, json: { list_id: 'l', title: 't' } }),
    ).rejects.toBeInstanceOf(InternalServerError);
    expect(recorded).toHaveLength(1);
  });
});

describe('idempotency keys across retries', () => {
  it('sends the same generated key on every attempt', async () => {
    const recorded = expectRequests('POST', '/v2/tasks', [
      errorAnswer(500, 'internal_error'),
      errorAnswer(503, 'internal_error'),
      ok(task()),
    ]);
    await client().tasks.create({ list_id: 'lst_1', title: 'Call Bob' });
    const keys = recorded.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(recorded.map((request) => request.body)).toEqual(
      Array(3).fill({ list_id: 'lst_1', title: 'Call Bob' }),
    );
  });

  it('sends the caller key on every attempt, also after a network error', async () => {
    nock(ORIGIN).delete('/v2/tasks/tsk_1').replyWithError('ECONNRESET');
    const recorded = expectRequests('DELETE', '/v2/tasks/tsk_1', [
      errorAnswer(502, 'internal_error'),
      ok({ id: 'tsk_1', deleted: true }),
    ]);
    await client().tasks.delete('tsk_1', { idempotencyKey: 'run-7-delete' });
    expect(recorded.map((request) => request.headers['idempotency-key'])).toEqual([
      'run-7-delete',
      'run-7-delete',
    ]);
  });
});

describe('Retry-After', () => {
  it('waits the seconds a 429 asks for, then retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(429, 'rate_limited', { headers: { 'retry-after': '2' } }),
      ok(me()),
    ]);
    const pending = client().me.get();
    await waitFor(() => recorded.length === 1);

    await vi.advanceTimersByTimeAsync(1_990);
    expect(recorded).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10);
    await waitFor(() => recorded.length === 2);
    expect((await pending).user_id).toBe('usr_ada');
  });

  it('waits the seconds a 503 service_unavailable (a draining server) asks for, then retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(503, 'service_unavailable', { headers: { 'retry-after': '3' } }),
      ok(me()),
    ]);
    const pending = client().me.get();
    await waitFor(() => recorded.length === 1);

    await vi.advanceTimersByTimeAsync(2_990);
    expect(recorded).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10);
    await waitFor(() => recorded.length === 2);
    expect((await pending).user_id).toBe('usr_ada');
  });

  it('waits until the HTTP date of a 409 idempotency_in_progress, then replays with the same key', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-01-05T10:00:00Z'));
    const recorded = expectRequests('POST', '/v2/tasks', [
      errorAnswer(409, 'idempotency_in_progress', {
        headers: { 'retry-after': 'Mon, 05 Jan 2026 10:00:03 GMT' },
      }),
      ok(task()),
    ]);
    const pending = client().tasks.create({ list_id: 'lst_1', title: 'x' }, { idempotencyKey: 'k-1' });
    await waitFor(() => recorded.length === 1);

    await vi.advanceTimersByTimeAsync(2_900);
    expect(recorded).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    await waitFor(() => recorded.length === 2);
    await pending;
    expect(recorded.map((request) => request.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
  });

  it('does not wait out a Retry-After beyond a minute: the caller gets the error and the wait', async () => {
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(429, 'rate_limited', { headers: { 'retry-after': '120' } }),
      ok(me()),
    ]);
    const error = await client()
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(120);
    expect(recorded).toHaveLength(1);
  });

  it('stops waiting when the caller aborts, without another attempt', async () => {
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(429, 'rate_limited', { headers: { 'retry-after': '30' } }),
      ok(me()),
    ]);
    const controller = new AbortController();
    const pending = client().me.get({ signal: controller.signal });
    await waitFor(() => recorded.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(recorded).toHaveLength(1);
  });
});

describe('backoff', () => {
  const failure = new ConnectionError({ message: 'reset' });

  it('doubles from the base delay up to the cap, with full jitter', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const ceilings = [1, 2, 3, 4, 5, 6, 10].map((retry) =>
      Math.round(retryDelay(failure, retry) ?? Number.NaN),
    );
    expect(ceilings).toEqual([
      RETRY_BASE_DELAY_MS,
      RETRY_BASE_DELAY_MS * 2,
      RETRY_BASE_DELAY_MS * 4,
      RETRY_BASE_DELAY_MS * 8,
      RETRY_MAX_DELAY_MS,
      RETRY_MAX_DELAY_MS,
      RETRY_MAX_DELAY_MS,
    ]);
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    expect(retryDelay(failure, 3)).toBe(RETRY_BASE_DELAY_MS);
  });

  it('gives no delay (no retry) for answers that are final', () => {
    const final = [
      new ThreadworkError({ message: 'bad', status: 400, code: 'validation_error' }),
      new ThreadworkError({ message: 'conflict', status: 409, code: 'idempotency_conflict' }),
      new ThreadworkError({ message: 'mailbox', status: 409, code: 'mailbox_not_connected' }),
      new ThreadworkError({ message: 'nope', status: 501 }),
      new Error('a bug'),
    ];
    expect(final.map((error) => retryDelay(error, 1))).toEqual(final.map(() => undefined));
  });
});

describe('retry timing (a caller with a time limit)', () => {
  it('waits the given backoff before each retry, not the jittered default', async () => {
    const waits: number[] = [];
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(502, 'internal_error'),
      errorAnswer(502, 'internal_error'),
      ok(me()),
    ]);
    const started: number[] = [];
    const timed = client({
      maxRetries: 3,
      retryTiming: {
        backoff: (retry) => {
          waits.push(retry);
          return retry * 40;
        },
      },
      fetch: (input, init) => {
        started.push(Date.now());
        return fetch(input, init);
      },
    });
    expect((await timed.me.get()).user_id).toBe('usr_ada');
    expect(recorded).toHaveLength(3);
    expect(waits).toEqual([1, 2]);
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(35);
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(75);
  });

  it('makes no retry whose wait would leave less than the minimum attempt before the deadline', async () => {
    const recorded = expectRequests('GET', '/v2/me', [
      errorAnswer(502, 'internal_error'),
      errorAnswer(502, 'internal_error'),
      ok(me()),
    ]);
    const timed = client({
      maxRetries: 3,
      retryTiming: { backoff: (retry) => retry * 100, deadline: Date.now() + 250, minAttemptMs: 100 },
    });
    // Retry 1 waits 100 ms and fits; retry 2 would wait 200 ms more: past the deadline, so the 502 stands.
    await expect(timed.me.get()).rejects.toMatchObject({ status: 502 });
    expect(recorded).toHaveLength(2);
    expect(nock.pendingMocks()).toHaveLength(1);
  });

  it('cuts a hanging attempt at the deadline, and retries a lost answer only while it fits', async () => {
    let attempts = 0;
    const hangingFetch: typeof fetch = (_input, init) => {
      attempts++;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    };
    const started = Date.now();
    const error = await client({
      fetch: hangingFetch,
      timeout: 10_000,
      maxRetries: 3,
      retryTiming: { backoff: () => 10, deadline: started + 150, minAttemptMs: 50 },
    })
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(attempts).toBe(1);
  });
});

describe('the per-attempt body', () => {
  it('is the same JSON text on every attempt', async () => {
    const recorded = expectRequests('PATCH', '/v2/tasks/tsk_1', [
      errorAnswer(504, 'internal_error'),
      ok(task()),
    ]);
    await client().tasks.update('tsk_1', { shade: 'teal' });
    expect(recorded.map((request) => request.body)).toEqual([{ shade: 'teal' }, { shade: 'teal' }]);
    expect(recorded.map((request) => request.headers['content-type'])).toEqual([
      'application/json',
      'application/json',
    ]);
  });
});

describe('caller abort', () => {
  it('rejects with the AbortError and does not retry', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const abortingFetch: typeof fetch = (_input, init) => {
      attempts++;
      controller.abort();
      return Promise.reject(init?.signal?.reason);
    };
    await expect(
      client({ fetch: abortingFetch }).me.get({ signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts).toBe(1);
  });

  it('sends nothing for an already aborted signal, and is neither a timeout nor a connection failure', async () => {
    const recorded = expectRequests('GET', '/v2/me', [ok(me())]);
    const controller = new AbortController();
    controller.abort();
    const error = await client()
      .me.get({ signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ThreadworkError);
    expect((error as Error).name).toBe('AbortError');
    expect(recorded).toEqual([]);
  });
});
