import { randomBytes } from 'node:crypto';

/** A new id with the spec's prefix, e.g. `newId('tsk')` → `tsk_` + 24 lowercase hex. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function newRequestId(): string {
  return newId('req');
}
