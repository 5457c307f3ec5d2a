import type { Scope } from '@threadwork/shared/schemas';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { authenticateV1, authenticateV2, requireScope } from './auth.ts';
import { idempotency } from './idempotency.ts';

/**
 * The pre-handler chain of a v2 route: authenticate → scopes → idempotency (writes only).
 * `app.get('/boards', { preHandler: v2Guard('boards.read') }, handler)`
 */
export function v2Guard(...scopes: Scope[]): preHandlerAsyncHookHandler[] {
  return scopes.length > 0
    ? [authenticateV2, requireScope(...scopes), idempotency]
    : [authenticateV2, idempotency];
}

/**
 * The pre-handler chain of a v1 route: session token → scopes → idempotency (writes only). v1 is held to
 * the scopes of the legacy key the token was minted from, the same check as v2's (docs/scopes-and-keys.md).
 * `app.get('/teams', { preHandler: v1Guard('boards.read') }, handler)`
 */
export function v1Guard(...scopes: Scope[]): preHandlerAsyncHookHandler[] {
  return scopes.length > 0
    ? [authenticateV1, requireScope(...scopes), idempotency]
    : [authenticateV1, idempotency];
}
