import ky, { type AfterResponseState, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import { errorFromResponse } from './error-from-response.ts';
import {
  ConnectionError,
  InvalidResponseError,
  parseRetryAfter,
  ThreadworkError,
  TimeoutError,
} from './errors.ts';
import { Redactor, redactUrl } from './redact.ts';
import type { HttpMethod } from './request.ts';

/**
 * The one HTTP stack of both clients, on ky: ky runs the attempts (per-attempt timeout, the retry loop and
 * its waits, full-jitter backoff), and this file holds the policy and the mapping: which failures are
 * replayed and after how long (`retryDelay`), and every failure as a `ThreadworkError`. A non-2xx answer is
 * mapped in ky's `afterResponse` hook, which either asks ky to retry after the policy's delay
 * (`ky.retry`) or throws the mapped error; a failure without an answer goes through `shouldRetry`.
 *
 * Only reads and writes that carry an Idempotency-Key are ever replayed, so a write never runs twice.
 *
 * No error leaves with a credential in it: every error `send` rejects with is a copy made by the request's
 * `Redactor` (the key pair of the URL, the credential headers), and answers are redacted before they are read
 * into a message (`redact.ts`).
 */

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Exponential backoff with full jitter: retry n waits a random time in [0, min(cap, base · 2^(n-1))). */
export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
/** A longer `Retry-After` is not waited out: the error goes to the caller, who can schedule the retry. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const DEFAULT_MIN_ATTEMPT_MS = 1_000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const PACKAGE_USER_AGENT = 'threadwork-shared/0.1.0';

/**
 * When retries happen, for callers that run within a time limit (a Zapier step has 30 s in all): the waits
 * between attempts, and a deadline every attempt must end by. Without it, the default backoff applies and
 * only `timeout` bounds an attempt.
 */
export interface RetryTiming {
  /** The wait before retry `retry` (1 for the first), in milliseconds; replaces the jittered default. */
  backoff?: ((retry: number) => number) | undefined;
  /**
   * Epoch milliseconds by which every attempt must be over: an attempt is cut there, and a retry whose wait
   * would leave it less than `minAttemptMs` before then is not made (the last failure is thrown instead).
   */
  deadline?: number | undefined;
  /** The least time worth giving an attempt (default 1 000 ms). */
  minAttemptMs?: number | undefined;
}

export interface HttpOptions {
  /** Headers sent with every request (auth, accept, user agent), lower-case names. */
  headers: Record<string, string>;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Per attempt (answer and body), in milliseconds. */
  timeout?: number | undefined;
  retryTiming?: RetryTiming | undefined;
  fetch?: typeof fetch | undefined;
}

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  /** Added to (and overriding) the default headers. */
  headers?: Record<string, string> | undefined;
  /** Sent as the JSON body. */
  json?: unknown;
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
}

export class HttpClient {
  readonly #timeout: number;
  readonly #maxRetries: number;
  readonly #ky: KyInstance;
  readonly #headers: Record<string, string>;
  readonly #timing: RetryTiming;

  constructor(options: HttpOptions) {
    this.#headers = options.headers;
    this.#timing = options.retryTiming ?? {};
    const { backoff } = this.#timing;
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.#maxRetries = maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new TypeError('maxRetries must be a non-negative integer');
    }
    if (!(this.#timeout > 0)) throw new TypeError('timeout must be a positive number of milliseconds');
    // A key with a newline or other invalid header character fails here, not later as a "network" error.
    new Headers(options.headers);
    const injected = options.fetch;
    this.#ky = ky.create({
      headers: options.headers,
      // The injected fetch gets (url, init), the form every fetch takes; the global one is looked up per
      // request, so a fetch replaced after construction (tests, polyfills) is used.
      fetch: async (input, init) => {
        const fetchImpl = injected ?? globalThis.fetch;
        if (!(input instanceof Request)) return fetchImpl(input, init);
        const headers: Record<string, string> = {};
        input.headers.forEach((value, name) => {
          headers[name] = value;
        });
        // By method, not `input.body`: Firefox's Request has no `body` getter, and its fetch refuses any
        // body (even '') on a GET or HEAD.
        const text = input.method === 'GET' || input.method === 'HEAD' ? '' : await input.text();
        const body = text === '' ? undefined : text;
        return fetchImpl(input.url, { ...init, method: input.method, headers, body, signal: input.signal });
      },
      throwHttpErrors: false,
      retry: {
        limit: maxRetries,
        // Every method reaches the policy, which replays only reads and keyed writes.
        methods: ['get', 'post', 'put', 'patch', 'delete'],
        statusCodes: [],
        afterStatusCodes: [],
        delay:
          backoff ?? ((attempt) => Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** (attempt - 1))),
        jitter: backoff === undefined,
      },
      hooks: { afterResponse: [(state) => this.#afterResponse(state)] },
    });
  }

  /**
   * Sends the request, retrying as the policy allows; resolves to the parsed JSON of the 2xx answer
   * (undefined when it has no body) or rejects with a `ThreadworkError` (a caller's abort stays an AbortError).
   */
  async send(request: HttpRequest): Promise<unknown> {
    try {
      return await this.#send(request);
    } catch (error) {
      // A caller's abort reason is the caller's own value, handed back as it is.
      if (request.signal?.aborted && error === request.signal.reason) throw error;
      throw Redactor.forRequest(request.url, { ...this.#headers, ...request.headers }).error(error);
    }
  }

  async #send(request: HttpRequest): Promise<unknown> {
    const url = redactUrl(request.url);
    const { deadline } = this.#timing;
    // Within a deadline, the request as a whole is cut there (ky's total timeout), but always gets one
    // attempt of at least the minimum.
    const left = deadline === undefined ? undefined : Math.max(deadline - Date.now(), this.#minAttempt);
    const timeout = Math.min(request.timeout ?? this.#timeout, left ?? Number.POSITIVE_INFINITY);
    const headers: Record<string, string> = { ...request.headers };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    const replayable = request.method === 'GET' || headers[IDEMPOTENCY_HEADER] !== undefined;
    let response: Response;
    let text: string;
    try {
      response = await this.#ky(request.url, {
        method: request.method,
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        signal: request.signal,
        timeout,
        ...(left === undefined ? {} : { totalTimeout: left }),
        retry: {
          // A failure without an answer (network, timeout); answers are decided in afterResponse.
          shouldRetry: ({ error, retryCount }) =>
            replayable &&
            !(error instanceof ThreadworkError) &&
            request.signal?.aborted !== true &&
            this.#fits(this.#timing.backoff?.(retryCount) ?? 0),
        },
      });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (error instanceof ThreadworkError) throw error;
      if (isTimeoutError(error)) {
        throw new TimeoutError({
          message: `${request.method} ${url} timed out after ${timeout} ms`,
          cause: error,
        });
      }
      const cause = isNetworkError(error) ? error.cause : error;
      throw new ConnectionError({
        message: `${request.method} ${url} failed: ${describeNetworkError(cause)}`,
        cause,
      });
    }
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      const redacted = Redactor.forRequest(request.url, { ...this.#headers, ...request.headers }).text(text);
      throw new InvalidResponseError({
        message: `${request.method} ${url}: the answer (HTTP ${response.status}) is not JSON`,
        status: response.status,
        details: redacted.slice(0, 200),
        cause: error,
      });
    }
  }

  /** A non-2xx answer: a retry after the policy's delay, or its `ThreadworkError`. */
  async #afterResponse({ request, response, retryCount }: AfterResponseState) {
    if (response.ok) return;
    // Redacted before it is read: an answer may echo the request (a 404 page naming the URL).
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = Redactor.forRequest(request.url, headers).text(await response.text());
    const error = errorFromResponse(response.status, body, response.headers);
    if (retryCount < this.#maxRetries && isReplayable(request)) {
      const wait = retryDelay(error, retryCount + 1, this.#timing.backoff);
      if (wait !== undefined && this.#fits(wait)) return ky.retry({ delay: wait });
    }
    throw error;
  }

  get #minAttempt(): number {
    return this.#timing.minAttemptMs ?? DEFAULT_MIN_ATTEMPT_MS;
  }

  /** Whether a retry after `wait` ms still leaves it the minimum attempt time before the deadline. */
  #fits(wait: number): boolean {
    const { deadline } = this.#timing;
    return deadline === undefined || Date.now() + wait + this.#minAttempt <= deadline;
  }
}

function isReplayable(request: Request): boolean {
  return request.method === 'GET' || request.headers.has(IDEMPOTENCY_HEADER);
}

/**
 * Milliseconds to wait before retry number `retry`, or undefined when the failure is final. Called only for
 * requests that may be replayed: reads, and writes that carry an Idempotency-Key.
 */
export function retryDelay(
  error: unknown,
  retry: number,
  backoff: (retry: number) => number = jitteredBackoff,
): number | undefined {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return backoff(retry);
  if (!(error instanceof ThreadworkError) || error.status === undefined) return undefined;
  const { status } = error;
  if (status === 429 || status === 503 || (status === 409 && error.code === 'idempotency_in_progress')) {
    const header = error.headers['retry-after'];
    const asked = header === undefined ? undefined : parseRetryAfter(header);
    if (asked === undefined) return backoff(retry);
    return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
  }
  // 501 Not Implemented will not change on a retry.
  if (status >= 500 && status !== 501) return backoff(retry);
  return undefined;
}

function jitteredBackoff(retry: number): number {
  return Math.random() * Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** (retry - 1));
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and keeps the socket's reason (ECONNREFUSED, …) as the cause.
  const { cause } = error;
  return cause instanceof Error && cause.message ? cause.message : error.message;
}
