import type { Scope } from '@threadwork/shared/schemas';

/**
 * Who is calling. `keyType` is `token` for a v1 session token (which may also call v2); its `keyId` is
 * the legacy key the token was issued for, so idempotency keys survive token refreshes.
 */
export interface Principal {
  userId: string;
  email: string;
  displayName: string | null;
  keyId: string | null;
  /** `v2`: a bearer key; `token`: a v1 session token minted from a legacy key. */
  keyType: 'v2' | 'token';
  scopes: ReadonlySet<Scope>;
}

/** The credential idempotency keys are scoped to. */
export function credentialOf(principal: Principal): string {
  return principal.keyId ? `key:${principal.keyId}` : `user:${principal.userId}`;
}
