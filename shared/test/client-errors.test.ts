import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ERROR_CLASSES,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorCode,
  errorFromResponse,
  ForbiddenError,
  IdempotencyConflictError,
  IdempotencyInProgressError,
  InsufficientScopeError,
  InternalServerError,
  InvalidJsonError,
  InvalidRequestError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  PayloadTooLargeError,
  parseRetryAfter,
  RateLimitedError,
  ServiceUnavailableError,
  SubscriptionRequiredError,
  ThreadworkClient,
  ThreadworkError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../src/index.ts';
import { API_KEY, BASE_URL, errorAnswer, expectRequests } from './client-fixtures.ts';

const EXPECTED_CLASS: Record<ErrorCode, typeof ThreadworkError> = {
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
};

const DETAILS: Partial<Record<ErrorCode, unknown>> = {
  validation_error: [{ path: 'title', message: 'must not be empty' }],
  insufficient_scope: { required: 'tasks.write' },
};

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

describe('each error code becomes its class', () => {
  it('has one class for every code the service defines', () => {
    expect(Object.keys(ERROR_CLASSES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(ERROR_CODES.map((code) => [code, ERROR_STATUS[code]] as const))(
    '%s (HTTP %i) from a client call',
    async (code, status) => {
      // 429 and 5xx are retried: the one attempt allowed here must carry the error itself.
      expectRequests('POST', '/v2/tasks', [errorAnswer(status, code, { details: DETAILS[code] })]);
      const client = new ThreadworkClient({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 0 });
      const error = await client.tasks
        .create({ list_id: 'lst_1', title: 'x' })
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(EXPECTED_CLASS[code]);
      expect(error).toBeInstanceOf(ThreadworkError);
      const typed = error as ThreadworkError;
      expect(typed.constructor).toBe(EXPECTED_CLASS[code]);
      expect(typed.name).toBe(EXPECTED_CLASS[code].name);
      expect(typed.status).toBe(status);
      expect(typed.code).toBe(code);
      expect(typed.message).toBe(`${code} happened`);
      expect(typed.requestId).toBe(`req_${code}`);
      expect(typed.details).toEqual(DETAILS[code]);
      expect(typed.headers['content-type']).toBe('application/json');
    },
  );

  it('keeps an unknown code on the base class', () => {
    const error = errorFromResponse(418, {
      error: { code: 'teapot', message: 'short and stout', request_id: 'r1' },
    });
    expect(error.constructor).toBe(ThreadworkError);
    expect(error).toMatchObject({ status: 418, code: 'teapot', message: 'short and stout', requestId: 'r1' });
  });

  it('chooses by code, not by status', () => {
    expect(
      errorFromResponse(409, { error: { code: 'mailbox_reauth_required', message: 'reconnect' } }),
    ).toBeInstanceOf(MailboxReauthRequiredError);
    expect(errorFromResponse(400, { error: { code: 'invalid_json', message: 'bad JSON' } })).toBeInstanceOf(
      InvalidJsonError,
    );
  });
});

describe('answers that are not the error envelope', () => {
  it('gives the status and a snippet of an HTML page', () => {
    const page = `<html>\n  <body>\n    <h1>502 Bad Gateway</h1>\n${'<p>upstream</p>'.repeat(40)}</body></html>`;
    const error = errorFromResponse(502, page, new Headers({ 'content-type': 'text/html' }));
    expect(error.constructor).toBe(ThreadworkError);
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
    expect(error.message).toMatch(/^HTTP 502: <html> <body> <h1>502 Bad Gateway<\/h1>/);
    expect(error.message.length).toBeLessThan(220);
    expect(error.message.endsWith('…')).toBe(true);
  });

  it('says only the status when there is no body', () => {
    expect(errorFromResponse(503, '').message).toBe('HTTP 503');
    expect(errorFromResponse(503, undefined).message).toBe('HTTP 503');
  });

  it('describes JSON that is not the envelope', () => {
    const error = errorFromResponse(500, { message: 'boom' });
    expect(error.message).toBe('HTTP 500: {"message":"boom"}');
    expect(error.details).toEqual({ message: 'boom' });
  });

  it('arrives through the client too', async () => {
    expectRequests('GET', '/v2/me', [{ status: 404, body: 'Cannot GET /v2/me' }]);
    const client = new ThreadworkClient({ baseUrl: BASE_URL, apiKey: API_KEY });
    await expect(client.me.get()).rejects.toMatchObject({
      status: 404,
      message: 'HTTP 404: Cannot GET /v2/me',
    });
  });
});

describe('errorFromResponse for other HTTP stacks', () => {
  it('parses a raw JSON text body and plain-object headers of any case', () => {
    const error = errorFromResponse(
      429,
      JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }),
      { 'Retry-After': '7', 'X-Request-Id': 'req_hdr', 'Set-Cookie': ['a=1', 'b=2'] },
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(7);
    // request_id absent from the body: the header's is used.
    expect(error.requestId).toBe('req_hdr');
    expect(error.headers).toEqual({
      'retry-after': '7',
      'x-request-id': 'req_hdr',
      'set-cookie': 'a=1, b=2',
    });
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-05T10:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 05 Jan 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Mon, 05 Jan 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('gives RateLimitedError.retryAfter in whole seconds, or undefined when not sent', () => {
    const body = { error: { code: 'rate_limited', message: 'slow down' } };
    const inFuture = new Date(Date.now() + 4_500).toUTCString();
    const fromDate = errorFromResponse(429, body, { 'retry-after': inFuture }) as RateLimitedError;
    expect(fromDate.retryAfter).toBeGreaterThanOrEqual(3);
    expect(fromDate.retryAfter).toBeLessThanOrEqual(5);
    expect((errorFromResponse(429, body) as RateLimitedError).retryAfter).toBeUndefined();
  });

  it('gives ServiceUnavailableError (a draining server) its retryAfter too', () => {
    const body = { error: { code: 'service_unavailable', message: 'the server is shutting down' } };
    const error = errorFromResponse(503, body, { 'retry-after': '1' });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).retryAfter).toBe(1);
  });
});
