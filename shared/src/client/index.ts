export { errorFromResponse } from './error-from-response.ts';
export {
  AuthenticationError,
  ConnectionError,
  ERROR_CLASSES,
  ForbiddenError,
  type HeadersLike,
  IdempotencyConflictError,
  IdempotencyInProgressError,
  InsufficientScopeError,
  InternalServerError,
  InvalidJsonError,
  InvalidRequestError,
  InvalidResponseError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  PayloadTooLargeError,
  parseRetryAfter,
  RateLimitedError,
  RequestValidationError,
  ServiceUnavailableError,
  SubscriptionRequiredError,
  ThreadworkError,
  type ThreadworkErrorInit,
  TimeoutError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.ts';
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  MAX_RETRY_AFTER_MS,
  RETRY_BASE_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  type RetryTiming,
} from './http.ts';
export { getMeta } from './meta.ts';
export { type Page, PagePromise } from './pagination.ts';
export { CREDENTIAL_PARAMETERS, REDACTED, redactUrl, withoutUrlSecrets } from './redact.ts';
export type { ListParams, RequestOptions } from './request.ts';
export { LegacyClient, type LegacyClientOptions } from './v1/client.ts';
export {
  type StoredToken,
  TOKEN_LIFETIME_MS,
  TOKEN_REFRESH_MARGIN_MS,
  type TokenStore,
  tokenExpiresAt,
  tokenNeedsRefresh,
  tokenRenewAt,
} from './v1/token.ts';
export { ThreadworkClient } from './v2/client.ts';
export type { AccessTokenProvider, ThreadworkClientOptions } from './v2/transport.ts';
