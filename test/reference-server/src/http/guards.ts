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

/** The pre-handler chain of a v1 route: session token → idempotency (writes only). */
export function v1Guard(): preHandlerAsyncHookHandler[] {
  return [authenticateV1, idempotency];
}
