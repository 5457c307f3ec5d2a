import { randomBytes, randomFillSync } from 'node:crypto';

const RANDOM_BYTES = 6;
// Random bytes are drawn from the system source a few kilobytes at a time (as randomUUID does):
// one call per id costs more than the rest of making it.
const pool = Buffer.alloc(RANDOM_BYTES * 512);
let poolOffset = pool.length;

/**
 * A new id with the spec's prefix, e.g. `newId('tsk')` → `tsk_` + 24 lowercase hex: the millisecond
 * clock (12 hex), then 48 random bits. Time-ordered, as ULIDs and UUIDv7 are, so that new rows land
 * at the right edge of each id index: a commit then writes a few index pages, not one per row.
 */
export function newId(prefix: string): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += RANDOM_BYTES;
  const time = Date.now().toString(16).padStart(12, '0');
  return `${prefix}_${time}${pool.toString('hex', start, poolOffset)}`;
}

// Request ids need to be unique, not unguessable: a random per-process prefix and a counter save a
// call into the random source on every request. Still `req_` + 24 lowercase hex.
const REQUEST_ID_PREFIX = `req_${randomBytes(6).toString('hex')}`;
let requestCounter = 0;

export function newRequestId(): string {
  requestCounter++;
  return REQUEST_ID_PREFIX + requestCounter.toString(16).padStart(12, '0');
}
