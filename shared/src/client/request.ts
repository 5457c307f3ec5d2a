import type { z } from 'zod';
import { RequestValidationError } from './errors.ts';

/** Options every method takes last. */
export interface RequestOptions {
  /** Writes only: replaces the generated key, e.g. one derived from stable inputs so a re-run repeats nothing. */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Per attempt, in milliseconds; overrides the client's `timeout`. */
  timeout?: number | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Parses a request body (or query) with its shared schema; a failure is thrown before anything is sent. */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  throw new RequestValidationError({
    message: `Invalid request ${what}: ${details.map(({ path, message }) => `${path}: ${message}`).join('; ')}`,
    code: 'validation_error',
    details,
  });
}

/** An id placed in a path: it must be a non-empty string, and is escaped. */
export function pathId(id: string, name: string): string {
  if (typeof id !== 'string' || id === '') {
    throw new RequestValidationError({
      message: `Invalid request: ${name} must be a non-empty string`,
      code: 'validation_error',
      details: [{ path: name, message: 'must be a non-empty string' }],
    });
  }
  return encodeURIComponent(id);
}

/** Query values as the service reads them; undefined values are left out. */
export type QueryInput = Record<string, string | number | boolean | undefined>;

export function toQueryRecord(query: QueryInput | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (query === undefined) return record;
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) record[name] = String(value);
  }
  return record;
}

/** Checks a query with its shared schema (which reads strings, as the service does) and returns it as strings. */
export function parseQuery(schema: z.ZodType, query: QueryInput | undefined): Record<string, string> {
  const record = toQueryRecord(query);
  parseRequest(schema, record, 'query');
  return record;
}

export function withQuery(path: string, query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search === '' ? path : `${path}?${search}`;
}

/** The query of a list endpoint as a caller passes it: the schema's output with `limit` optional. */
export type ListParams<Q extends { limit: number }> = Omit<Q, 'limit'> & { limit?: number | undefined };
