import { randomBytes } from 'node:crypto';

/** A new id with the spec's prefix, e.g. `newId('tsk')` → `tsk_` + 24 lowercase hex. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

// Request ids need to be unique, not unguessable: a random per-process prefix and a counter save a
// call into the random source on every request. Still `req_` + 24 lowercase hex.
const REQUEST_ID_PREFIX = `req_${randomBytes(6).toString('hex')}`;
let requestCounter = 0;

export function newRequestId(): string {
  requestCounter++;
  return REQUEST_ID_PREFIX + requestCounter.toString(16).padStart(12, '0');
}
