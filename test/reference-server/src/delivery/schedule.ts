// When a delivery is tried again, and when a subscription is given up on (docs/webhooks.md).

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after the 1st, 2nd, … failed attempt. Attempt 1 goes at once, so at most 9 attempts. */
export const RETRY_DELAYS_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Each wait varies by up to this fraction either way, so retries of many deliveries spread out. */
export const RETRY_JITTER = 0.1;

/** Per attempt; not scaled by `--webhook-time-scale`. */
export const ATTEMPT_TIMEOUT_MS = 15 * SECOND;

/** A subscription whose every attempt has failed for this long (from the first failure) is given up on. */
export const FAILING_STREAK_LIMIT_MS = 5 * 24 * HOUR;

/**
 * The wait before the next attempt after `failedAttempts` failures, with jitter, multiplied by
 * `timeScale`; null when no attempt is left.
 */
export function retryDelayMs(
  failedAttempts: number,
  timeScale: number,
  random: () => number = Math.random,
): number | null {
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  const jitter = 1 + RETRY_JITTER * (2 * random() - 1);
  return base * jitter * timeScale;
}

/**
 * The attempts still ahead of a delivery that has failed `failedAttempts` times and is due next at
 * `nextAt` (ISO), were each to fail: their numbers and nominal times (each wait may vary by the jitter).
 */
export function attemptsAhead(
  failedAttempts: number,
  nextAt: string,
  timeScale: number,
): { number: number; at: string }[] {
  const ahead: { number: number; at: string }[] = [];
  let at = Date.parse(nextAt);
  for (let number = failedAttempts + 1; number <= MAX_ATTEMPTS; number++) {
    if (number > failedAttempts + 1) at += RETRY_DELAYS_MS[number - 2]! * timeScale;
    ahead.push({ number, at: new Date(at).toISOString() });
  }
  return ahead;
}
