/**
 * No credential leaves the shared package inside an error. The v1 token call carries its key pair in the
 * query string (as the spec asks), and a failure's message, its `cause` (fetch's socket errors, ky's timeout
 * with its `Request`), or an answer that echoes the request back (a 404 page naming the URL) would otherwise
 * show it to whoever reads the error: the Zap editor, the extension's panel, a log.
 *
 * Two rules (docs/errors.md, "Credentials in errors"):
 * - by name: the value of a credential query parameter (`CREDENTIAL_PARAMETERS`) in any text becomes `***`,
 *   so `…/auth/api_token?email=ada%40example.com&api_key=***&api_secret=***&api_key_name=Zapier` still says
 *   which call failed and with whose key;
 * - by value: every credential the request carried (the key pair, a v2 key secret, a session token) is
 *   replaced by `***` wherever it appears, in its plain, URL-encoded and JSON-escaped spellings.
 *
 * The error handed to the caller is a copy: the same class (so `instanceof` and `name` still work), strings
 * and plain data redacted, causes copied the same way, and every other object (a `Request`, a `Response`,
 * ky's `options`) left out.
 */

export const REDACTED = '***';

/**
 * Query parameters whose values are credentials: `api_secret`, and `api_key`, the other half of the pair.
 * `email` and `api_key_name` stay readable: they identify the key (which one failed) and grant nothing.
 */
export const CREDENTIAL_PARAMETERS = ['api_key', 'api_secret'] as const;

/** Request headers whose values are credentials (a v2 key as `Bearer`, a v1 session token). */
export const CREDENTIAL_HEADERS = ['authorization', 'x-access-token'] as const;

/**
 * Shorter values are not searched for by value (they would blank out ordinary words); they are still
 * redacted by parameter name, and no message is ever built from them.
 */
const MIN_SECRET_LENGTH = 4;
const MAX_DEPTH = 8;

const PARAMETER_PATTERN = new RegExp(
  `(?<![A-Za-z0-9_-])(${CREDENTIAL_PARAMETERS.join('|')})=[^&#\\s"'<>\\\\]*`,
  'gi',
);

/** Redacts the credential query parameters of a URL (or any text holding one), keeping their names. */
export function redactUrl(url: string): string {
  return url.replace(PARAMETER_PATTERN, `$1=${REDACTED}`);
}

/**
 * Text as a person may see it: every URL keeps its scheme, host and path, and loses its `user:password@`
 * part, its query and its fragment (the token call's query carries the key pair). A URL in running text
 * ends at white space, a quote, a backtick or an angle bracket. The Zapier app and the extension pass
 * every message they show through this, on top of the clients' own redaction above.
 */
export function withoutUrlSecrets(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'`<>]*@/gi, '$1')
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s?#"'`<>]*)[?#][^\s"'`<>]*/gi, '$1');
}

/** The credentials a request carries in its headers: the bearer key and the session token. */
export function credentialsOfHeaders(headers: Readonly<Record<string, string>> | undefined): string[] {
  if (headers === undefined) return [];
  const found: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!(CREDENTIAL_HEADERS as readonly string[]).includes(name.toLowerCase())) continue;
    found.push(value);
    const bearer = /^bearer\s+(.+)$/i.exec(value.trim());
    if (bearer?.[1] !== undefined) found.push(bearer[1]);
  }
  return found;
}

/** The credentials in a URL's query string (the v1 token call's key pair). */
export function credentialsOfUrl(url: string): string[] {
  const query = url.indexOf('?');
  if (query === -1) return [];
  const params = new URLSearchParams(url.slice(query + 1).split('#')[0]);
  return CREDENTIAL_PARAMETERS.flatMap((name) => params.getAll(name));
}

/** Every spelling of `secret` a message could hold: as given, URL-encoded (both ways), JSON-escaped. */
function spellings(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
  ];
}

export class Redactor {
  /** The redactor of one request: the credentials in its URL and its headers. */
  static forRequest(url: string, headers: Readonly<Record<string, string>> | undefined): Redactor {
    return new Redactor([...credentialsOfUrl(url), ...credentialsOfHeaders(headers)]);
  }

  /** Longest first, so a secret containing another is replaced whole. */
  readonly #secrets: readonly string[];

  constructor(secrets: Iterable<string | undefined>) {
    const unique = new Set<string>();
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
      for (const spelling of spellings(secret)) unique.add(spelling);
    }
    this.#secrets = [...unique].sort((a, b) => b.length - a.length);
  }

  text(text: string): string {
    let result = redactUrl(text);
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
  }

  /**
   * A redacted copy of a thrown value: an error keeps its class and its own properties (strings and plain
   * data redacted, causes copied likewise); objects of other classes are left out.
   */
  error<T>(error: T): T {
    return this.#copy(error, 0, new WeakMap()) as T;
  }

  #copy(value: unknown, depth: number, seen: WeakMap<object, unknown>): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return typeof value === 'function' ? undefined : value;
    const done = seen.get(value);
    if (done !== undefined) return done;
    if (depth > MAX_DEPTH) return undefined;
    if (value instanceof Error) return this.#copyError(value, depth, seen);
    if (Array.isArray(value)) {
      const array: unknown[] = [];
      seen.set(value, array);
      for (const item of value) array.push(this.#copy(item, depth + 1, seen));
      return array;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return undefined;
    const record: Record<string, unknown> = {};
    seen.set(value, record);
    for (const [key, item] of Object.entries(value)) {
      const copied = this.#copy(item, depth + 1, seen);
      if (copied !== undefined) record[key] = copied;
    }
    return record;
  }

  #copyError(error: Error, depth: number, seen: WeakMap<object, unknown>): Error {
    let copy: Error = Object.create(Object.getPrototypeOf(error));
    try {
      // Some classes (DOMException) read name and message from internal slots a copy does not have.
      void copy.name;
      void copy.message;
    } catch {
      copy = Object.create(Error.prototype);
    }
    seen.set(error, copy);
    const define = (key: PropertyKey, value: unknown, enumerable: boolean) =>
      Object.defineProperty(copy, key, { value, enumerable, writable: true, configurable: true });
    for (const key of Reflect.ownKeys(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, key);
      if (descriptor === undefined) continue;
      let value: unknown;
      try {
        value =
          'value' in descriptor ? descriptor.value : (error as unknown as Record<PropertyKey, unknown>)[key];
      } catch {
        continue;
      }
      const copied = this.#copy(value, depth + 1, seen);
      if (copied !== undefined) define(key, copied, descriptor.enumerable === true);
    }
    // Read through getters too: a message or name the class keeps elsewhere is still given, redacted.
    if (!Object.hasOwn(copy, 'message')) define('message', this.text(String(error.message ?? '')), false);
    if (copy.name !== error.name) define('name', this.text(String(error.name)), false);
    if (!Object.hasOwn(copy, 'stack') && typeof error.stack === 'string') {
      define('stack', this.text(error.stack), false);
    }
    return copy;
  }
}
