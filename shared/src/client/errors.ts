import type { ErrorCode } from '../schemas/errors.ts';

/**
 * Every failure the clients raise is a `ThreadworkError`. An answer from the service becomes the subclass of
 * its error code (one table, `ERROR_CLASSES`); an unknown code or a body that is not the error envelope
 * becomes the base class. Network failures are `ConnectionError` / `TimeoutError` and carry no status.
 * This module loads no zod (an error answer's body is read in `error-from-response.ts`), so code that only catches or throws
 * these errors stays light to load (`@threadwork/shared/light`).
 */

export interface ThreadworkErrorInit {
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  details?: unknown;
  headers?: Record<string, string> | undefined;
  cause?: unknown;
}

export class ThreadworkError extends Error {
  override name = 'ThreadworkError';
  /** The HTTP status; undefined when no answer came back (or the request was never sent). */
  readonly status: number | undefined;
  /** The service's error code (`not_found`, …); undefined when the answer carried none. */
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: unknown;
  /** The answer's headers, lower-case names. */
  readonly headers: Record<string, string>;

  constructor(init: ThreadworkErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers ?? {};
  }
}

export class ValidationError extends ThreadworkError {
  override name = 'ValidationError';
}
export class InvalidJsonError extends ThreadworkError {
  override name = 'InvalidJsonError';
}
/** The request could not be read as HTTP (its status may be 400, 417 or 431). */
export class InvalidRequestError extends ThreadworkError {
  override name = 'InvalidRequestError';
}
/** Missing, wrong or expired credentials (`unauthenticated`). */
export class AuthenticationError extends ThreadworkError {
  override name = 'AuthenticationError';
}
export class SubscriptionRequiredError extends ThreadworkError {
  override name = 'SubscriptionRequiredError';
}
export class InsufficientScopeError extends ThreadworkError {
  override name = 'InsufficientScopeError';
}
/** The console (a local web app, `--console`) refused a client that is not on the server's machine. */
export class ForbiddenError extends ThreadworkError {
  override name = 'ForbiddenError';
}
export class NotFoundError extends ThreadworkError {
  override name = 'NotFoundError';
}
/** The same Idempotency-Key was sent earlier with another body. */
export class IdempotencyConflictError extends ThreadworkError {
  override name = 'IdempotencyConflictError';
}
/** The request first sent with this Idempotency-Key is still running. */
export class IdempotencyInProgressError extends ThreadworkError {
  override name = 'IdempotencyInProgressError';
}
export class MailboxNotConnectedError extends ThreadworkError {
  override name = 'MailboxNotConnectedError';
}
export class MailboxReauthRequiredError extends ThreadworkError {
  override name = 'MailboxReauthRequiredError';
}
export class PayloadTooLargeError extends ThreadworkError {
  override name = 'PayloadTooLargeError';
}
export class UnsupportedMediaTypeError extends ThreadworkError {
  override name = 'UnsupportedMediaTypeError';
}
/** An answer that says when to come back (`Retry-After`). */
abstract class RetryLaterError extends ThreadworkError {
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: ThreadworkErrorInit) {
    super(init);
    const header = this.headers['retry-after'];
    const milliseconds = header === undefined ? undefined : parseRetryAfter(header);
    this.retryAfter = milliseconds === undefined ? undefined : Math.ceil(milliseconds / 1000);
  }
}
export class RateLimitedError extends RetryLaterError {
  override name = 'RateLimitedError';
}
export class InternalServerError extends ThreadworkError {
  override name = 'InternalServerError';
}
/** The service is shutting down (draining): retry after `Retry-After`, on it or another instance. */
export class ServiceUnavailableError extends RetryLaterError {
  override name = 'ServiceUnavailableError';
}

/** No answer: the connection failed (refused, reset, DNS). */
export class ConnectionError extends ThreadworkError {
  override name = 'ConnectionError';
}
/** No answer within the per-attempt timeout. */
export class TimeoutError extends ThreadworkError {
  override name = 'TimeoutError';
}
/** A request refused before sending: the body or a parameter fails the shared request schema. */
export class RequestValidationError extends ValidationError {
  override name = 'RequestValidationError';
}
/** A success answer whose body does not match the response schema (or is not JSON). */
export class InvalidResponseError extends ThreadworkError {
  override name = 'InvalidResponseError';
}

export type ErrorClass = new (init: ThreadworkErrorInit) => ThreadworkError;

/** The one table from error code to class; `satisfies` keeps it complete when a code is added. */
export const ERROR_CLASSES = {
  validation_error: ValidationError,
  invalid_json: InvalidJsonError,
  invalid_request: InvalidRequestError,
  unauthenticated: AuthenticationError,
  subscription_required: SubscriptionRequiredError,
  insufficient_scope: InsufficientScopeError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  idempotency_conflict: IdempotencyConflictError,
  idempotency_in_progress: IdempotencyInProgressError,
  mailbox_not_connected: MailboxNotConnectedError,
  mailbox_reauth_required: MailboxReauthRequiredError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  rate_limited: RateLimitedError,
  internal_error: InternalServerError,
  service_unavailable: ServiceUnavailableError,
} as const satisfies Record<ErrorCode, ErrorClass>;

/** Headers as a fetch `Headers`, or a plain object as other HTTP stacks (Zapier's among them) give them. */
export type HeadersLike = Headers | Record<string, string | readonly string[] | undefined>;

export function normaliseHeaders(headers: HeadersLike | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined) return result;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      result[name] = value;
    });
    return result;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return result;
}

/** `Retry-After` as milliseconds from now: delay-seconds or an HTTP date; undefined when unreadable. */
export function parseRetryAfter(value: string, now: number = Date.now()): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
