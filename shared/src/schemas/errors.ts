import { z } from 'zod';
import { openEnum } from './common.ts';

/** Every error code the service answers with, and the HTTP status that goes with it (docs/errors.md). */
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_json: 400,
  // A request that is not well-formed HTTP or cannot be routed at all (bad percent-encoding, a malformed
  // request line, headers too large: 431, an expectation the server cannot meet: 417).
  invalid_request: 400,
  unauthenticated: 401,
  subscription_required: 402,
  insufficient_scope: 403,
  // The console (a local web app acting as a user) refusing a client that is not on this machine.
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  idempotency_in_progress: 409,
  mailbox_not_connected: 409,
  mailbox_reauth_required: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  // A request that arrives while the server drains (shutting down); `Retry-After` says when to retry.
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const ErrorCode = z.enum(ERROR_CODES);

/** One entry of a validation error's details. */
export const ValidationIssue = z.looseObject({ path: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: openEnum(ERROR_CODES),
    message: z.string(),
    request_id: z.string().optional(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
