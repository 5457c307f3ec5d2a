// Authentication (v2 bearer keys, v1 session tokens) and scope checks, as Fastify pre-handlers.
import { SCOPES, type Scope } from '@threadwork/shared/schemas';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { insufficientScope, ServiceError } from '../domain/errors.ts';
import type { Principal } from '../domain/principal.ts';
import { cachePrincipal, credentialGeneration, knownPrincipal } from '../domain/principal-cache.ts';
import { digestsEqual, hashSecret } from '../domain/secrets.ts';
import { findUserLegacyKey, findV2KeyByDigest } from '../storage/credentials.ts';
import { principalOf } from './request-state.ts';

const KNOWN_SCOPES: ReadonlySet<string> = new Set(SCOPES);

/** A key's stored scopes (JSON text), leaving out any name this server no longer knows. */
function scopesOf(stored: string): ReadonlySet<Scope> {
  return new Set((JSON.parse(stored) as string[]).filter((scope): scope is Scope => KNOWN_SCOPES.has(scope)));
}

function unauthenticated(message: string): ServiceError {
  return new ServiceError('unauthenticated', message);
}

async function principalFromBearer(request: FastifyRequest, secret: string): Promise<Principal> {
  const digest = hashSecret(secret);
  const { db } = request.server.ctx;
  const credential = `v2:${digest}`;
  const cached = await knownPrincipal(db, credential, request);
  if (cached) return cached.principal;
  const readAt = credentialGeneration(db);
  const row = await findV2KeyByDigest(db, digest);
  if (!row || !digestsEqual(row.secret_hash, digest)) throw unauthenticated('the API key is not valid');
  const principal: Principal = {
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    keyId: row.id,
    keyType: 'v2',
    scopes: scopesOf(row.scopes),
  };
  cachePrincipal(db, credential, principal, readAt);
  return principal;
}

async function principalFromSessionToken(request: FastifyRequest, token: string): Promise<Principal> {
  const { db, tokens, now } = request.server.ctx;
  const credential = `token:${token}`;
  // This very token was verified before: only its expiry can have changed since.
  const cached = await knownPrincipal(db, credential, request);
  if (cached && cached.expiresAt !== null && cached.expiresAt > Math.floor(now().getTime() / 1000)) {
    return cached.principal;
  }
  const claims = tokens.verify(token);
  if (!claims) throw unauthenticated('the session token is not valid or has expired; request a new one');
  // The key must still exist: revoking a legacy key ends the sessions minted from it.
  const readAt = credentialGeneration(db);
  const row = await findUserLegacyKey(db, claims.sub, claims.kid);
  if (!row) throw unauthenticated('the session token is not valid or has expired; request a new one');
  const principal: Principal = {
    userId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    keyId: row.id,
    keyType: 'token',
    // Legacy token auth: the token holds the scopes of the legacy key it was minted from.
    scopes: scopesOf(row.scopes),
  };
  cachePrincipal(db, credential, principal, readAt, claims.exp);
  return principal;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** v2: `Authorization: Bearer <secret>`, or a v1 session token in `x-access-token`. */
export const authenticateV2: preHandlerAsyncHookHandler = async (request) => {
  const authorization = headerValue(request, 'authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthenticated('the Authorization header must be "Bearer <API key>"');
    request.principal = await principalFromBearer(request, match[1]);
    return;
  }
  const token = headerValue(request, 'x-access-token');
  if (token) {
    request.principal = await principalFromSessionToken(request, token);
    return;
  }
  throw unauthenticated('missing credentials: send "Authorization: Bearer <API key>"');
};

/** v1: a session token in `x-access-token`. */
export const authenticateV1: preHandlerAsyncHookHandler = async (request) => {
  const token = headerValue(request, 'x-access-token');
  if (!token) throw unauthenticated('missing credentials: send the session token in x-access-token');
  request.principal = await principalFromSessionToken(request, token);
};

const checkedScopes = new WeakMap<object, readonly Scope[]>();

/** The scopes a pre-handler made by `requireScope` checks (none for any other handler). */
export function scopesCheckedBy(handler: object): readonly Scope[] {
  return checkedScopes.get(handler) ?? [];
}

/** 403 insufficient_scope naming every missing scope. */
export function requireScope(...scopes: Scope[]): preHandlerAsyncHookHandler {
  const check: preHandlerAsyncHookHandler = async (request) => {
    const principal = principalOf(request);
    const missing = scopes.filter((scope) => !principal.scopes.has(scope));
    if (missing.length > 0) throw insufficientScope(missing);
  };
  checkedScopes.set(check, scopes);
  return check;
}
