import {
  ConnectionError,
  errorFromResponse,
  InvalidResponseError,
  parseRetryAfter,
  ThreadworkError,
  TimeoutError,
} from './errors.ts';
import type { HttpMethod } from './request.ts';

/**
 * The one HTTP stack of both clients: one attempt over `fetch` with a per-attempt timeout, the retry policy
 * around it, and the mapping of every failure to a `ThreadworkError`.
 *
 * It calls `fetch` directly instead of going through a general-purpose request wrapper: the common request
 * (GET, fixed headers) then costs one `fetch`, one AbortController and one timer on top of a bare `fetch`,
 * which is what keeps `client.me.get()` within its latency budget (shared/bench/client-overhead.bench.ts).
 */

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Exponential backoff with full jitter: retry n waits a random time in [0, min(cap, base · 2^(n-1))). */
export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 8_000;
/** A longer `Retry-After` is not waited out: the error goes to the caller, who can schedule the retry. */
export const MAX_RETRY_AFTER_MS = 60_000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const PACKAGE_USER_AGENT = 'threadwork-shared/0.1.0';

export interface HttpOptions {
  /** Headers sent with every request (auth, accept, user agent), lower-case names. */
  headers: Record<string, string>;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Per attempt (answer and body), in milliseconds. */
  timeout?: number | undefined;
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
  readonly #headers: Record<string, string>;
  readonly #maxRetries: number;
  readonly #timeout: number;
  readonly #fetch: typeof fetch | undefined;

  constructor(options: HttpOptions) {
    this.#headers = options.headers;
    this.#maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.#fetch = options.fetch;
    if (!Number.isInteger(this.#maxRetries) || this.#maxRetries < 0) {
      throw new TypeError('maxRetries must be a non-negative integer');
    }
    if (!(this.#timeout > 0)) throw new TypeError('timeout must be a positive number of milliseconds');
    // A key with a newline or other invalid header character fails here, not later as a "network" error.
    new Headers(options.headers);
  }

  /**
   * Sends the request, retrying as the policy allows; resolves to the parsed JSON of the 2xx answer
   * (undefined when it has no body) or rejects with a `ThreadworkError` (a caller's abort stays an AbortError).
   */
  async send(request: HttpRequest): Promise<unknown> {
    const init = this.#init(request);
    const replayable = request.method === 'GET' || init.headers[IDEMPOTENCY_HEADER] !== undefined;
    for (let retry = 1; ; retry++) {
      try {
        return await this.#attempt(request, init);
      } catch (error) {
        const wait = replayable && retry <= this.#maxRetries ? retryDelay(error, retry) : undefined;
        if (wait === undefined) throw error;
        await sleep(wait, request.signal);
      }
    }
  }

  #init(request: HttpRequest): { method: HttpMethod; headers: Record<string, string>; body?: string } {
    // The shared defaults object is used as is unless this request adds something: no copy per request.
    let headers = this.#headers;
    if (request.headers !== undefined || request.json !== undefined) {
      headers = { ...this.#headers, ...request.headers };
      if (request.json !== undefined) headers['content-type'] = 'application/json';
    }
    return request.json === undefined
      ? { method: request.method, headers }
      : { method: request.method, headers, body: JSON.stringify(request.json) };
  }

  async #attempt(
    request: HttpRequest,
    init: { method: HttpMethod; headers: Record<string, string>; body?: string },
  ): Promise<unknown> {
    const controller = new AbortController();
    const timeout = request.timeout ?? this.#timeout;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    const signal =
      request.signal === undefined ? controller.signal : AbortSignal.any([request.signal, controller.signal]);
    const fetchImpl = this.#fetch ?? globalThis.fetch;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(request.url, { ...init, signal });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) {
        throw new TimeoutError({
          message: `${request.method} ${request.url} timed out after ${timeout} ms`,
          cause: error,
        });
      }
      throw new ConnectionError({
        message: `${request.method} ${request.url} failed: ${describeNetworkError(error)}`,
        cause: error,
      });
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw errorFromResponse(response.status, text, response.headers);
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new InvalidResponseError({
        message: `${request.method} ${request.url}: the answer (HTTP ${response.status}) is not JSON`,
        status: response.status,
        details: text.slice(0, 200),
        cause: error,
      });
    }
  }
}

/**
 * Milliseconds to wait before retry number `retry`, or undefined when the failure is final. Called only for
 * requests that may be replayed: reads, and writes that carry an Idempotency-Key.
 */
export function retryDelay(error: unknown, retry: number): number | undefined {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return backoff(retry);
  if (!(error instanceof ThreadworkError) || error.status === undefined) return undefined;
  const { status } = error;
  if (status === 429 || (status === 409 && error.code === 'idempotency_in_progress')) {
    const header = error.headers['retry-after'];
    const asked = header === undefined ? undefined : parseRetryAfter(header);
    if (asked === undefined) return backoff(retry);
    return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
  }
  // 501 Not Implemented will not change on a retry.
  if (status >= 500 && status !== 501) return backoff(retry);
  return undefined;
}

function backoff(retry: number): number {
  return Math.random() * Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** (retry - 1));
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and keeps the socket's reason (ECONNREFUSED, …) as the cause.
  const { cause } = error;
  return cause instanceof Error && cause.message ? cause.message : error.message;
}
