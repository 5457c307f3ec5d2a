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
