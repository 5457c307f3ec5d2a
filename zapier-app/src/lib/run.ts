/**
 * One run of a step, as Zapier gives it (one `bundle`): its share of Zapier's 30 seconds, and what its
 * writes did, so the last failure can say whether the service may have acted (docs/zapier-app.md,
 * "Retries and failures").
 *
 * - Time: a request that gets no answer, a 5xx or 409 `idempotency_in_progress` is retried with the same
 *   Idempotency-Key after about 1 s, 3 s and 8 s, each attempt cut at 8 s, and no retry starts that could
 *   not end within the run's budget (27 s from the run's first request: Zapier stops a run at 30 s).
 * - Writes: each write (its Idempotency-Key) ends in one of three states. `acted`: the service answered
 *   2xx. `refused`: it answered a 4xx other than 409 `idempotency_in_progress`, or 503
 *   `service_unavailable` (the service said it did nothing). `unknown`: the last answer was lost, a 5xx,
 *   or "still in progress": the service may have acted. A refused connection leaves the state as it was
 *   (that attempt reached nothing).
 */
import type { Bundle } from 'zapier-platform-core';

export interface RetryTimes {
  /** The wait before retry n is `delaysMs[n - 1]`; there are as many retries as waits. */
  delaysMs: readonly number[];
  /** One attempt's limit. */
  attemptTimeoutMs: number;
  /** From a run's first request to the end of its last attempt. */
  budgetMs: number;
  /** The least time worth giving an attempt: a retry that cannot have it is not made. */
  minAttemptMs: number;
}

const DEFAULT_TIMES: RetryTimes = {
  delaysMs: [1_000, 3_000, 8_000],
  attemptTimeoutMs: 8_000,
  budgetMs: 27_000,
  minAttemptMs: 1_000,
};

let times: RetryTimes = DEFAULT_TIMES;

/** The times in force. */
export function retryTimes(): RetryTimes {
  return times;
}

/**
 * Replaces the times (tests shorten them so a failing case does not wait 12 s); `undefined` restores the
 * defaults.
 */
export function setRetryTimes(next: Partial<RetryTimes> | undefined): void {
  times = next === undefined ? DEFAULT_TIMES : { ...DEFAULT_TIMES, ...next };
}

export type WriteState = 'acted' | 'refused' | 'unknown';

export interface Write {
  method: string;
  /** The path, without origin or query (e.g. `/v2/tasks`). */
  path: string;
  state: WriteState | 'unsent';
}

export interface Run {
  /** Epoch ms by which every attempt of the run must be over. */
  deadline: number;
  /** Every write of the run, by Idempotency-Key, in the order first sent. */
  writes: Map<string, Write>;
  /** What the run has done so far, in words ("created the task "Call Bob" (tsk_1)"), for a later failure. */
  done: string[];
}

const runs = new WeakMap<object, Run>();

/** The run `bundle` stands for; its clock starts at the first call. */
export function runOf(bundle: Bundle): Run {
  let run = runs.get(bundle);
  if (run === undefined) {
    run = { deadline: Date.now() + times.budgetMs, writes: new Map(), done: [] };
    runs.set(bundle, run);
  }
  return run;
}

/** How the run's requests retry: the backoff, the deadline, the attempt limits. */
export function timingOf(run: Run) {
  const { delaysMs, attemptTimeoutMs, minAttemptMs } = times;
  return {
    maxRetries: delaysMs.length,
    timeout: attemptTimeoutMs,
    retryTiming: {
      backoff: (retry: number) => delaysMs[retry - 1] ?? delaysMs.at(-1) ?? 0,
      deadline: run.deadline,
      minAttemptMs,
    },
  };
}

/**
 * Why no answer came, from the socket's error code (the error or one of its causes): the connection was
 * refused, the host is unknown, or it cannot be reached (the request never left), or the connection was
 * `lost` on the way, after the request may have arrived.
 */
export type NoAnswer = 'refused' | 'no such host' | 'unreachable' | 'lost';

export function whyNoAnswer(error: unknown): NoAnswer {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    const text = `${String((current as { code?: unknown }).code ?? '')} ${current.message}`;
    if (/ECONNREFUSED/.test(text)) return 'refused';
    if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'no such host';
    if (/EHOSTUNREACH|ENETUNREACH/.test(text)) return 'unreachable';
    current = current.cause;
  }
  return 'lost';
}

/** What one attempt of a write ended in: an answer's status and code, or no answer (`refused`: none sent). */
export type Attempt = { status: number; code?: string | undefined } | { lost: 'refused' | 'dropped' };

/** Records one attempt of the write under `key`. */
export function recordAttempt(run: Run, key: string, method: string, path: string, attempt: Attempt): void {
  const write = run.writes.get(key) ?? { method, path, state: 'unsent' as const };
  run.writes.set(key, { ...write, state: stateAfter(write.state, attempt) });
}

function stateAfter(before: Write['state'], attempt: Attempt): Write['state'] {
  if ('lost' in attempt) return attempt.lost === 'refused' ? before : 'unknown';
  const { status, code } = attempt;
  if (status >= 200 && status < 300) return 'acted';
  if (status === 409 && code === 'idempotency_in_progress') return 'unknown';
  if (status === 503 && code === 'service_unavailable') return before === 'unsent' ? 'refused' : before;
  if (status >= 400 && status < 500) return 'refused';
  return 'unknown';
}

/** The writes of the run the service carried out or may have: what a failure must mention. */
export function writesThatMayHaveActed(run: Run | undefined): Write[] {
  return [...(run?.writes.values() ?? [])].filter(
    (write) => write.state === 'acted' || write.state === 'unknown',
  );
}

/** The run of `bundle` when one was started (no run: the step made no request). */
export function existingRun(bundle: Bundle | undefined): Run | undefined {
  return bundle === undefined ? undefined : runs.get(bundle);
}
