import type { PaginationMeta, PaginationQuery } from '@threadwork/shared/schemas';
import { ServiceError } from './errors.ts';

/** The values of a row's sort key, in sort order; the last one is always a unique id. */
export type CursorKey = readonly (string | number)[];

/** What a list endpoint's query asks of a page (the shared `PaginationQuery`; domain callers may omit both). */
export type PageRequest = Partial<PaginationQuery>;

/** `meta.pagination` of a list answer. */
export type Pagination = PaginationMeta;

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The cursor is opaque to clients: anything we did not issue is a validation error on `cursor`. */
export function decodeCursor(cursor: string, arity: number): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const valid =
    Array.isArray(key) &&
    key.length === arity &&
    key.every((part) => typeof part === 'string' || typeof part === 'number');
  if (!valid) {
    throw new ServiceError('validation_error', 'cursor: not a cursor this server issued', [
      { path: 'cursor', message: 'not a cursor this server issued' },
    ]);
  }
  return key as CursorKey;
}
