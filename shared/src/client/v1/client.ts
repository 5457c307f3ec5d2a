import type { z } from 'zod';
import type { Operation } from '../../operations/operation.ts';
import { sessionToken, v1, v1Hooks } from '../../operations/v1.ts';
import {
  type V1Board,
  type V1Created,
  type V1CreateFromEmailRequest,
  type V1CreateItemRequest,
  type V1Item,
  type V1List,
  V1Object,
  type V1SubscribeRequest,
  type V1Subscription,
  type V1Success,
  type V1Team,
  V1TokenRequest,
} from '../../schemas/v1/index.ts';
import { AuthenticationError, InvalidResponseError, ThreadworkError } from '../errors.ts';
import { HttpClient, IDEMPOTENCY_HEADER, PACKAGE_USER_AGENT, type RetryTiming } from '../http.ts';
import { parseQuery, parseRequest, type QueryInput, type RequestOptions, withQuery } from '../request.ts';
import type { AccessTokenProvider } from '../v2/transport.ts';
import { type StoredToken, type TokenStore, tokenRenewAt } from './token.ts';

export interface LegacyClientOptions {
  /** The login email the key was created with (the four credentials are needed unless `accessToken` is given). */
  email?: string | undefined;
  apiKey?: string | undefined;
  apiSecret?: string | undefined;
  /** The name given to the key. */
  apiKeyName?: string | undefined;
  /**
   * A session token managed by the caller (Zapier's session auth keeps it in the connection), or a function
   * that supplies one: the client sends it and never calls the token endpoint itself.
   */
  accessToken?: string | AccessTokenProvider | undefined;
  /** The service origin: v1 lives at `{origin}/api/v1`, the token endpoint at `{origin}/auth/api_token`. */
  origin: string;
  fetch?: typeof fetch | undefined;
  /**
   * Where the session token is kept beyond this client's memory (read before an exchange, written after
   * one), e.g. a browser extension's session storage.
   */
  tokenStore?: TokenStore | undefined;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: (() => number) | undefined;
  /** Retries of reads after the first attempt (default 2); v1 writes carry no idempotency key and are never retried. */
  maxRetries?: number | undefined;
  /** Per attempt, in milliseconds (default 30 000). */
  timeout?: number | undefined;
  /** Waits between attempts and a deadline for all of them (e.g. a Zapier step's time limit). */
  retryTiming?: RetryTiming | undefined;
  userAgent?: string | undefined;
}

/** What a v1 operation answers: its bare body, parsed (nothing when it answers no body). */
type AnswerOf<O extends Operation> = O extends { bare: infer T extends z.ZodType } ? z.output<T> : undefined;

/**
 * The frozen v1 interface. Exchanges the key for a session token, caches it until a minute before it
 * expires, and on a 401 renews it once and repeats the call. v1 answers are bare JSON (no envelope).
 */
export class LegacyClient {
  readonly #http: HttpClient;
  readonly #origin: string;
  readonly #credentials: LegacyClientOptions;
  readonly #now: () => number;
  #token: StoredToken | undefined;
  #exchange: Promise<string> | undefined;

  constructor(options: LegacyClientOptions) {
    if (typeof options.origin !== 'string' || options.origin === '') {
      throw new TypeError('LegacyClient: origin is required (the service origin, e.g. https://host)');
    }
    this.#origin = options.origin.replace(/\/+$/, '');
    this.#credentials = options;
    this.#now = options.now ?? Date.now;
    this.#http = new HttpClient({
      headers: { accept: 'application/json', 'user-agent': options.userAgent ?? PACKAGE_USER_AGENT },
      maxRetries: options.maxRetries,
      timeout: options.timeout,
      retryTiming: options.retryTiming,
      fetch: options.fetch,
    });
  }

  /**
   * The session token, from the cache while it has more than a minute left. `refresh` forces a new exchange
   * (the v2 client passes it after a 401: `accessToken: (context) => legacy.getToken(context)`).
   */
  getToken(options?: { refresh?: boolean | undefined }): Promise<string> {
    const { accessToken } = this.#credentials;
    if (accessToken !== undefined) {
      return Promise.resolve(
        typeof accessToken === 'string' ? accessToken : accessToken({ refresh: options?.refresh === true }),
      );
    }
    const refresh = options?.refresh === true;
    const cached = this.#token;
    if (!refresh && cached !== undefined && this.#now() < cached.renewAt)
      return Promise.resolve(cached.token);
    if (!refresh && this.#credentials.tokenStore !== undefined)
      return this.#fromStore(this.#credentials.tokenStore);
    return this.#exchangeOnce();
  }

  async #fromStore(store: TokenStore): Promise<string> {
    const stored = await store.get();
    if (stored != null && this.#now() < stored.renewAt) {
      this.#token = { token: stored.token, renewAt: stored.renewAt };
      return stored.token;
    }
    return this.#exchangeOnce();
  }

  /** Concurrent callers share one exchange. */
  #exchangeOnce(): Promise<string> {
    this.#exchange ??= this.#requestToken().finally(() => {
      this.#exchange = undefined;
    });
    return this.#exchange;
  }

  /** GET /teams */
  teams(): Promise<V1Team[]> {
    return this.#call(v1.teams);
  }

  /** GET /boards?teamId= */
  async boards(teamId: string): Promise<V1Board[]> {
    return this.#call(v1.boards, { query: { teamId } });
  }

  /** GET /lists?boardId= */
  async lists(boardId: string): Promise<V1List[]> {
    return this.#call(v1.lists, { query: { boardId } });
  }

  /** GET /items: every item of a board, or of one list. */
  async items(
    scope: { boardId: string; listId?: never } | { listId: string; boardId?: never },
  ): Promise<V1Item[]> {
    return this.#call(v1.items, { query: scope });
  }

  /** POST /items */
  async createItem(body: z.input<typeof V1CreateItemRequest>, options?: RequestOptions): Promise<V1Created> {
    return this.#call(v1.createItem, { body }, options);
  }

  /** POST /items/createFromEmail: the email's subject becomes the title. */
  async createFromEmail(
    body: z.input<typeof V1CreateFromEmailRequest>,
    options?: RequestOptions,
  ): Promise<V1Created> {
    return this.#call(v1.createFromEmail, { body }, options);
  }

  async markComplete(itemId: string, options?: RequestOptions): Promise<V1Success> {
    return this.#call(v1.markComplete, { body: { itemId } }, options);
  }

  async markIncomplete(itemId: string, options?: RequestOptions): Promise<V1Success> {
    return this.#call(v1.markIncomplete, { body: { itemId } }, options);
  }

  async assignTask(itemId: string, assigneeEmail: string, options?: RequestOptions): Promise<V1Success> {
    return this.#call(v1.assignTask, { body: { itemId, assigneeEmail } }, options);
  }

  async unassignTask(itemId: string, assigneeEmail: string, options?: RequestOptions): Promise<V1Success> {
    return this.#call(v1.unassignTask, { body: { itemId, assigneeEmail } }, options);
  }

  async moveTaskToList(itemId: string, listId: string, options?: RequestOptions): Promise<V1Success> {
    return this.#call(v1.moveTaskToList, { body: { itemId, listId } }, options);
  }

  /** POST /{object}/subscribe: a hook POSTing the item to `webhookURL` when `action` happens. */
  async subscribe(
    object: V1Object,
    body: z.input<typeof V1SubscribeRequest>,
    options?: RequestOptions,
  ): Promise<V1Subscription> {
    return this.#call(v1Hooks[parseRequest(V1Object, object, 'object')].subscribe, { body }, options);
  }

  /** POST /{object}/unsubscribe: the answer has no body. */
  async unsubscribe(object: V1Object, subscriptionId: string): Promise<void> {
    await this.#call(v1Hooks[parseRequest(V1Object, object, 'object')].unsubscribe, {
      body: { subscriptionId },
    });
  }

  async #requestToken(): Promise<string> {
    const given = this.#credentials;
    if (given.accessToken !== undefined) throw new TypeError('unreachable: the caller owns the token');
    const credentials = parseRequest(
      V1TokenRequest,
      {
        email: given.email,
        api_key: given.apiKey,
        api_secret: given.apiSecret,
        api_key_name: given.apiKeyName,
      },
      'credentials',
    );
    // The reference request carries the four parameters in the query string and in the JSON body alike.
    const url = withQuery(this.#origin + sessionToken.path, credentials);
    let json: unknown;
    try {
      json = await this.#http.send({ method: 'POST', url, json: credentials });
    } catch (error) {
      throw asTokenError(error);
    }
    const parsed = sessionToken.bare.safeParse(json);
    if (!parsed.success) {
      throw new InvalidResponseError({ message: 'The token endpoint answered without an x-access-token' });
    }
    const token = parsed.data['x-access-token'];
    this.#token = { token, renewAt: tokenRenewAt(token, this.#now()) };
    await given.tokenStore?.set(this.#token);
    return token;
  }

  /** After a 401: a new token, unless another call already replaced the rejected one. */
  #renewAfterRejection(rejected: string): Promise<string> {
    const current = this.#token?.token;
    if (current !== undefined && current !== rejected) return Promise.resolve(current);
    return this.getToken({ refresh: true });
  }

  /** One v1 operation: its query and body checked with its schemas before anything is sent. */
  async #call<O extends Operation>(
    operation: O,
    input: { query?: QueryInput; body?: unknown } = {},
    options?: RequestOptions,
  ): Promise<AnswerOf<O>> {
    const path = operation.query
      ? withQuery(operation.path, parseQuery(operation.query, input.query))
      : operation.path;
    const body = operation.body ? parseRequest(operation.body, input.body) : undefined;
    const token = await this.getToken();
    try {
      return await this.#attempt(operation, path, body, token, options);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      return this.#attempt(operation, path, body, await this.#renewAfterRejection(token), options);
    }
  }

  async #attempt<O extends Operation>(
    operation: O,
    path: string,
    body: unknown,
    token: string,
    options: RequestOptions | undefined,
  ): Promise<AnswerOf<O>> {
    const { method, bare } = operation;
    const url = this.#origin + path;
    const headers: Record<string, string> = { 'x-access-token': token };
    // v1 writes are sent once unless the caller gives a key (the service honours it on v1 too).
    if (options?.idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
    const json = await this.#http.send({
      method,
      url,
      headers,
      json: body,
      signal: options?.signal,
      timeout: options?.timeout,
    });
    if (!bare) return undefined as AnswerOf<O>;
    const parsed = bare.safeParse(json);
    if (parsed.success) return parsed.data as AnswerOf<O>;
    throw new InvalidResponseError({
      message: `${method} ${url}: the answer does not match the expected shape`,
      details: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
}

/** A 401 from the token endpoint is always an AuthenticationError carrying the service's message. */
function asTokenError(error: unknown): unknown {
  if (error instanceof ThreadworkError && error.status === 401 && !(error instanceof AuthenticationError)) {
    return new AuthenticationError({
      message: error.message,
      status: 401,
      code: error.code ?? 'unauthenticated',
      requestId: error.requestId,
      details: error.details,
      headers: error.headers,
    });
  }
  return error;
}
