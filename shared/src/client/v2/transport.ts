import type { z } from 'zod';
import type { Operation } from '../../operations/operation.ts';
import type { Meta } from '../../schemas/common.ts';
import { AuthenticationError, InvalidResponseError } from '../errors.ts';
import { HttpClient, IDEMPOTENCY_HEADER, PACKAGE_USER_AGENT, type RetryTiming } from '../http.ts';
import { attachMeta } from '../meta.ts';
import { createPage, type Page, PagePromise } from '../pagination.ts';
import { type HttpMethod, type RequestOptions, withQuery } from '../request.ts';

/**
 * Called for the legacy session token before each request; `refresh` is true once after a 401, asking for a
 * new token (`LegacyClient#getToken` takes the same argument).
 */
export type AccessTokenProvider = (context: { refresh: boolean }) => string | Promise<string>;

export interface ThreadworkClientOptions {
  /** The v2 root, e.g. `http://127.0.0.1:8787/v2`. */
  baseUrl: string;
  /** A v2 API key, sent as `Authorization: Bearer`. Exactly one of apiKey / accessToken. */
  apiKey?: string | undefined;
  /** A legacy v1 session token (sent as `x-access-token`), or a function that supplies one. */
  accessToken?: string | AccessTokenProvider | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  /** Per attempt, in milliseconds (default 30 000). */
  timeout?: number | undefined;
  /** Waits between attempts and a deadline for all of them (e.g. a Zapier step's time limit). */
  retryTiming?: RetryTiming | undefined;
  fetch?: typeof fetch | undefined;
  userAgent?: string | undefined;
}

/** The parsed envelope of an answer whose data is `T`. */
export type EnvelopeSchema<T> = z.ZodType<{ data: T; meta: Meta }>;

/** Sends v2 requests: auth, idempotency keys, the token refresh on 401, envelope parsing and meta. */
export class V2Transport {
  readonly #http: HttpClient;
  readonly #root: string;
  readonly #tokenProvider: AccessTokenProvider | undefined;

  constructor(options: ThreadworkClientOptions) {
    if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
      throw new TypeError('ThreadworkClient: baseUrl is required (the v2 root, e.g. https://host/v2)');
    }
    const hasKey = options.apiKey !== undefined;
    const hasToken = options.accessToken !== undefined;
    if (hasKey === hasToken) {
      throw new TypeError('ThreadworkClient: pass exactly one of apiKey or accessToken');
    }
    if (!URL.canParse(options.baseUrl)) {
      throw new TypeError(`ThreadworkClient: baseUrl is not a URL: ${options.baseUrl}`);
    }
    this.#root = options.baseUrl.replace(/\/+$/, '');
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? PACKAGE_USER_AGENT,
    };
    if (options.apiKey !== undefined) headers['authorization'] = `Bearer ${options.apiKey}`;
    if (typeof options.accessToken === 'string') headers['x-access-token'] = options.accessToken;
    this.#tokenProvider = typeof options.accessToken === 'function' ? options.accessToken : undefined;
    this.#http = new HttpClient({
      headers,
      maxRetries: options.maxRetries,
      timeout: options.timeout,
      retryTiming: options.retryTiming,
      fetch: options.fetch,
    });
  }

  /**
   * One operation's request; resolves to the envelope's `data`, with its meta attached. `path` is relative to
   * the v2 root and may carry a query. A write the operation declares idempotent carries an Idempotency-Key.
   */
  async request<T>(
    operation: Pick<Operation, 'method' | 'idempotent'>,
    path: string,
    schema: EnvelopeSchema<T>,
    body?: unknown,
    options?: RequestOptions,
  ): Promise<T> {
    const json = await this.#send(operation.method, path, body, operation.idempotent, options);
    const envelope = parseEnvelope(schema, json);
    return attachMeta(envelope.data, envelope.meta);
  }

  /**
   * A list endpoint: the first page now, later pages on demand with the same query plus `cursor`.
   * `prepare` builds the path and query; it runs inside the promise, so a bad input rejects rather than throws.
   */
  list<T>(
    prepare: () => { path: string; query: Record<string, string> },
    schema: EnvelopeSchema<T[]>,
    options?: RequestOptions,
  ): PagePromise<T> {
    const load = async (path: string, query: Record<string, string>): Promise<Page<T>> => {
      const json = await this.#send('GET', withQuery(path, query), undefined, false, options);
      const { data, meta } = parseEnvelope(schema, json);
      return createPage(data, meta, (cursor) => load(path, { ...query, cursor }));
    };
    return PagePromise.from(
      Promise.resolve().then(() => {
        const { path, query } = prepare();
        return load(path, query);
      }),
    );
  }

  async #send(
    method: HttpMethod,
    path: string,
    body: unknown,
    idempotent: boolean,
    options: RequestOptions | undefined,
  ) {
    // Fixed before the first attempt, so every retry (and the retry after a token refresh) reuses it.
    const idempotencyKey = idempotent
      ? (options?.idempotencyKey ?? globalThis.crypto.randomUUID())
      : undefined;
    const url = this.#root + path;
    if (this.#tokenProvider === undefined) {
      return this.#attempt(method, url, body, idempotencyKey, undefined, options);
    }
    const token = await this.#tokenProvider({ refresh: false });
    try {
      return await this.#attempt(method, url, body, idempotencyKey, token, options);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      const freshToken = await this.#tokenProvider({ refresh: true });
      return this.#attempt(method, url, body, idempotencyKey, freshToken, options);
    }
  }

  #attempt(
    method: HttpMethod,
    url: string,
    body: unknown,
    idempotencyKey: string | undefined,
    token: string | undefined,
    options: RequestOptions | undefined,
  ): Promise<unknown> {
    // The common read (GET, fixed credentials, no options) adds nothing to the client's defaults.
    if (idempotencyKey === undefined && token === undefined) {
      return this.#http.send({ method, url, json: body, signal: options?.signal, timeout: options?.timeout });
    }
    const headers: Record<string, string> = {};
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    if (token !== undefined) headers['x-access-token'] = token;
    return this.#http.send({
      method,
      url,
      headers,
      json: body,
      signal: options?.signal,
      timeout: options?.timeout,
    });
  }
}

function parseEnvelope<T>(schema: EnvelopeSchema<T>, json: unknown): { data: T; meta: Meta } {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  throw new InvalidResponseError({
    message: `The answer does not match the expected shape: ${details
      .slice(0, 5)
      .map(({ path, message }) => `${path}: ${message}`)
      .join('; ')}`,
    requestId: requestIdOf(json),
    details,
  });
}

function requestIdOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('meta' in json)) return undefined;
  const { meta } = json;
  return typeof meta === 'object' &&
    meta !== null &&
    'request_id' in meta &&
    typeof meta.request_id === 'string'
    ? meta.request_id
    : undefined;
}
