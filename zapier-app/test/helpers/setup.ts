/**
 * Every test file runs with the retry waits shortened (about 1 s, 3 s, 8 s in production; lib/run.ts), so a
 * failing case costs milliseconds; the attempt limit and the run's budget stay as they are unless a test
 * shortens them itself (the proxy tests of a hanging service).
 */
import { beforeEach } from 'vitest';
import { setRetryTimes } from '../../src/lib/run.ts';

export const TEST_RETRY_DELAYS_MS = [5, 15, 40];

beforeEach(() => {
  setRetryTimes({ delaysMs: TEST_RETRY_DELAYS_MS });
});
