import { ErrorBody } from '../schemas/errors.ts';
import {
  ERROR_CLASSES,
  type ErrorClass,
  type HeadersLike,
  normaliseHeaders,
  ThreadworkError,
} from './errors.ts';

const knownClasses: Readonly<Record<string, ErrorClass | undefined>> = ERROR_CLASSES;

const SNIPPET_LENGTH = 200;

/**
 * The error for a non-2xx answer. `body` is the parsed JSON, or the raw text (parsed here when it is JSON).
 * Reused by anything that talks to the service through another HTTP stack.
 */
export function errorFromResponse(status: number, body: unknown, headers?: HeadersLike): ThreadworkError {
  const headerRecord = normaliseHeaders(headers);
  const parsed = ErrorBody.safeParse(typeof body === 'string' ? parseJsonOrText(body) : body);
  if (parsed.success) {
    const { code, message, request_id, details } = parsed.data.error;
    const ErrorType = knownClasses[code] ?? ThreadworkError;
    return new ErrorType({
      message,
      status,
      code,
      requestId: request_id ?? headerRecord['x-request-id'],
      details,
      headers: headerRecord,
    });
  }
  const snippet = describeBody(body);
  return new ThreadworkError({
    message: snippet === '' ? `HTTP ${status}` : `HTTP ${status}: ${snippet}`,
    status,
    requestId: headerRecord['x-request-id'],
    details: body,
    headers: headerRecord,
  });
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describeBody(body: unknown): string {
  if (body === undefined || body === null) return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > SNIPPET_LENGTH ? `${collapsed.slice(0, SNIPPET_LENGTH)}…` : collapsed;
}
