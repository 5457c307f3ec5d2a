/**
 * The one lifecycle of a v1 session token (a JWT, about 20 minutes): read its `exp`, renew it a minute
 * before, and keep it where its holder wants (the v1 client's memory, the extension's `storage.session`,
 * Zapier's `bundle.authData`). Every holder uses these, so no margin or lifetime is kept twice.
 */

/** A token is renewed this long before its `exp`, so it never expires in flight. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** The documented lifetime, assumed when a token carries no readable `exp`. */
export const TOKEN_LIFETIME_MS = 20 * 60_000;

/**
 * The expiry of a v1 session token (a JWT), in epoch milliseconds, read from its payload's `exp` without
 * verifying the signature (only the service can). Undefined when the token carries no readable `exp`.
 */
export function tokenExpiresAt(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload === '') return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof claims !== 'object' || claims === null || !('exp' in claims)) return undefined;
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When a token just received at `receivedAt` must be renewed: the refresh margin before its `exp`, or before
 * the documented lifetime has passed when it carries none.
 */
export function tokenRenewAt(token: string, receivedAt: number): number {
  return (tokenExpiresAt(token) ?? receivedAt + TOKEN_LIFETIME_MS) - TOKEN_REFRESH_MARGIN_MS;
}

/**
 * Whether a token kept without its receipt time (Zapier keeps only the token) must be renewed before use:
 * when there is none, or its `exp` is within the refresh margin. A token without a readable `exp` is used
 * until the service refuses it (its age is unknown), which renews it then.
 */
export function tokenNeedsRefresh(token: string | null | undefined, now: number = Date.now()): boolean {
  if (token === undefined || token === null || token === '') return true;
  const expiresAt = tokenExpiresAt(token);
  return expiresAt !== undefined && now >= expiresAt - TOKEN_REFRESH_MARGIN_MS;
}

/** A session token and when to renew it (epoch milliseconds), as a `TokenStore` keeps it. */
export interface StoredToken {
  token: string;
  renewAt: number;
}

/**
 * Where the v1 client keeps its session token beyond its own memory, e.g. a browser extension's session
 * storage, so a restarted worker reuses it. `get` answers nothing when it holds no token for this key.
 */
export interface TokenStore {
  get(): StoredToken | null | undefined | Promise<StoredToken | null | undefined>;
  set(stored: StoredToken): void | Promise<void>;
}
