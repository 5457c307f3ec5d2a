import nock from 'nock';
import { afterEach, beforeEach, expect } from 'vitest';

/** No real network in each test, and every mocked request must have been made by its end. */
export function strictNock(): void {
  beforeEach(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    nock.enableNetConnect();
    expect(pending).toEqual([]);
  });
}
