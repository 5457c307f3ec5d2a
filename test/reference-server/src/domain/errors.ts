import { ERROR_STATUS, type ErrorCode, type Scope } from '@threadwork/shared/schemas';

/**
 * An expected failure with its error code; the HTTP status follows from the code (one table in the
 * shared schemas), so a code can never be answered with the wrong status.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  /** Extra response headers, e.g. `retry-after`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, details?: unknown, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.headers = headers;
  }
}

/** 404 for ids that do not exist and for those the caller may not see alike: never reveal existence. */
export function notFound(what: string, id: string): ServiceError {
  return new ServiceError('not_found', `${what} ${id} was not found`);
}

/** 401 for a write made with a key revoked since the request authenticated. */
export function keyRevoked(): ServiceError {
  return new ServiceError('unauthenticated', 'the API key was revoked');
}

/** 403 insufficient_scope naming the missing scopes (`details.required_scopes`). */
export function insufficientScope(
  missing: readonly Scope[],
  message = `this key lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
): ServiceError {
  return new ServiceError('insufficient_scope', message, { required_scopes: [...missing] });
}

/** A 400 validation_error about one field, for checks that only the domain can make. */
export function invalidField(path: string, message: string): ServiceError {
  return new ServiceError('validation_error', `${path}: ${message}`, [{ path, message }]);
}

/** `boards[0].lists[1].colour` */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}
