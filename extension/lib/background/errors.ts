import {
  AuthenticationError,
  ConnectionError,
  InsufficientScopeError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  SubscriptionRequiredError,
  ThreadworkError,
  TimeoutError,
  ValidationError,
  withoutUrlSecrets,
} from '@threadwork/shared';
import type { ErrorKind, Failure } from '../protocol.ts';

/** A failure the background raises itself (not configured, no host permission, a step after a create). */
export class BackgroundError extends Error {
  readonly kind: ErrorKind;
  readonly code: string | undefined;
  constructor(kind: ErrorKind, message: string, code?: string) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}

/** A message as the UI may show it: a URL keeps its origin and path, never its query string or user:password part. */
export const redact: (message: string) => string = withoutUrlSecrets;

/** Turns anything thrown while serving a request into the protocol's failure, keeping the service's message. */
export function toFailure(error: unknown): Failure {
  const failure = classify(error);
  return { ...failure, message: redact(failure.message) };
}

function classify(error: unknown): Failure {
  if (error instanceof BackgroundError)
    return {
      kind: error.kind,
      message: error.message,
      ...(error.code === undefined ? {} : { code: error.code }),
    };
  if (error instanceof ThreadworkError) {
    const base = { message: error.message, ...(error.code === undefined ? {} : { code: error.code }) };
    if (error instanceof AuthenticationError) return { kind: 'bad_credentials', ...base };
    if (error instanceof SubscriptionRequiredError) return { kind: 'subscription', ...base };
    if (error instanceof MailboxNotConnectedError || error instanceof MailboxReauthRequiredError) {
      return { kind: 'mailbox', ...base };
    }
    if (error instanceof ConnectionError || error instanceof TimeoutError)
      return { kind: 'unreachable', ...base };
    if (error instanceof InsufficientScopeError) return { kind: 'scope', ...base };
    if (error instanceof NotFoundError) return { kind: 'not_found', ...base };
    if (error instanceof ValidationError) return { kind: 'invalid', ...base };
    return { kind: 'unknown', ...base };
  }
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error) };
}
