// v1 session tokens: JWT HS256 signed with a secret generated once and kept in the database, so
// tokens survive a restart. No JWT package: the format is three base64url parts and one HMAC.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../db/executor.ts';
import { sessionSigningSecret } from '../storage/credentials.ts';

export const SESSION_TOKEN_TTL_SECONDS = 20 * 60;

export interface SessionClaims {
  /** The user id. */
  sub: string;
  /** The legacy key the token was issued for. */
  kid: string;
  iat: number;
  exp: number;
}

export interface SessionTokens {
  issue(userId: string, keyId: string): { token: string; claims: SessionClaims };
  /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
  verify(token: string): SessionClaims | null;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export async function loadSessionTokens(db: Executor, now: () => Date): Promise<SessionTokens> {
  const key = Buffer.from(await sessionSigningSecret(db, randomBytes(32).toString('hex')), 'hex');
  const sign = (input: string) => createHmac('sha256', key).update(input).digest();
  const nowSeconds = () => Math.floor(now().getTime() / 1000);

  return {
    issue(userId, keyId) {
      const iat = nowSeconds();
      const claims: SessionClaims = { sub: userId, kid: keyId, iat, exp: iat + SESSION_TOKEN_TTL_SECONDS };
      const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return { token: `${body}.${sign(body).toString('base64url')}`, claims };
    },
    verify(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return null;
      const [header, payload, signature] = parts as [string, string, string];
      if (header !== HEADER) return null;
      const expected = sign(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!isClaims(claims) || claims.exp <= nowSeconds()) return null;
      return claims;
    },
  };
}

function isClaims(value: unknown): value is SessionClaims {
  if (typeof value !== 'object' || value === null) return false;
  const claims = value as Record<string, unknown>;
  return (
    typeof claims['sub'] === 'string' &&
    typeof claims['kid'] === 'string' &&
    typeof claims['iat'] === 'number' &&
    typeof claims['exp'] === 'number'
  );
}
