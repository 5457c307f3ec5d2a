/**
 * Service errors as Zapier errors: each message says what to do in words a Zap builder understands, and
 * carries the service's code (Zapier shows both). A rate limit becomes Zapier's `ThrottledError` (Zapier
 * retries later) and a rejected session token its `RefreshAuthError` (Zapier renews the token and reruns).
 * Zapier's own errors, raised inside `z.request` and wrapped by the client as a connection failure, pass
 * through unchanged.
 */
import {
  AuthenticationError,
  ConnectionError,
  IdempotencyConflictError,
  IdempotencyInProgressError,
  InsufficientScopeError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  RateLimitedError,
  SubscriptionRequiredError,
  ThreadworkError,
  TimeoutError,
  ValidationError,
} from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';

const ZAPIER_ERROR_NAMES = new Set([
  'AppError',
  'ThrottledError',
  'RefreshAuthError',
  'ExpiredAuthError',
  'HaltedError',
  'ResponseError',
  'StopRequestError',
]);

/** The error to throw for `error`: a Zapier error with a human message, or `error` itself when it is one. */
export function toZapierError(z: ZObject, error: unknown): Error {
  const zapierError = zapierCause(error);
  if (zapierError !== undefined) return zapierError;
  if (!(error instanceof ThreadworkError)) return error instanceof Error ? error : new Error(String(error));
  const status = error.status;
  const fail = (message: string) => new z.errors.Error(message, error.code ?? error.name, status);
  if (error instanceof AuthenticationError) return new z.errors.RefreshAuthError(error.message);
  if (error instanceof RateLimitedError) {
    return new z.errors.ThrottledError(
      'The service is rate limiting requests; Zapier will retry this step later.',
      error.retryAfter,
    );
  }
  if (error instanceof IdempotencyInProgressError) {
    return new z.errors.ThrottledError('The same step is still running on the service; retrying shortly.', 5);
  }
  if (error instanceof SubscriptionRequiredError) {
    return fail(
      'This team has no active paid subscription. Ask a team admin to renew the plan, then run the step again.',
    );
  }
  if (error instanceof InsufficientScopeError) {
    const scope = scopeOf(error.details);
    return fail(
      `The connected account lacks the permission${scope === undefined ? '' : ` "${scope}"`} this step needs. ` +
        'Reconnect with a key that has it.',
    );
  }
  if (error instanceof MailboxNotConnectedError) {
    return fail(
      'No mailbox is connected to this account. Connect your mailbox in the extension, then run the step again.',
    );
  }
  if (error instanceof MailboxReauthRequiredError) {
    return fail(
      'Your mailbox connection has expired. Reconnect your mailbox in the extension, then run the step again.',
    );
  }
  if (error instanceof NotFoundError) {
    return fail(
      'Not found: the item does not exist or this account cannot see it. Check the ID or pick it from the list again.',
    );
  }
  if (error instanceof IdempotencyConflictError) {
    return fail(
      'This step was already run with the same key and different inputs. Change an input to create a new object.',
    );
  }
  if (error instanceof ValidationError) {
    const fields = fieldsOf(error.details);
    return fail(fields === '' ? `Invalid input: ${error.message}` : `Invalid input: ${fields}`);
  }
  if (error instanceof TimeoutError) return fail('The service did not answer in time. Try the step again.');
  if (error instanceof ConnectionError) {
    return fail(`Could not reach the service: ${error.message}. Check the service URL of the connection.`);
  }
  return fail(error.message);
}

/** Wraps a perform function so that every error it throws goes through `toZapierError`. */
export function withZapierErrors<B extends Bundle, R>(
  perform: (z: ZObject, bundle: B) => Promise<R>,
): (z: ZObject, bundle: B) => Promise<R> {
  return async (z, bundle) => {
    try {
      return await perform(z, bundle);
    } catch (error) {
      throw toZapierError(z, error);
    }
  };
}

/** A Zapier error itself (of one of `names`), or the one a client error wraps as its cause. */
export function zapierCause(
  error: unknown,
  names: ReadonlySet<string> = ZAPIER_ERROR_NAMES,
): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (names.has(current.name)) return current;
    current = current.cause;
  }
  return undefined;
}

function scopeOf(details: unknown): string | undefined {
  if (typeof details === 'object' && details !== null) {
    const record = details as Record<string, unknown>;
    const scopes = record['required_scopes'];
    if (Array.isArray(scopes) && scopes.length > 0) return scopes.map(String).join('", "');
    if (typeof record['scope'] === 'string') return record['scope'];
  }
  return undefined;
}

function fieldsOf(details: unknown): string {
  if (!Array.isArray(details)) return '';
  return details
    .map((detail) => {
      if (typeof detail !== 'object' || detail === null) return String(detail);
      const { path, message } = detail as { path?: unknown; message?: unknown };
      return `${String(path ?? '(input)')}: ${String(message ?? 'invalid')}`;
    })
    .join('; ');
}
