import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DeferredCommit } from '../db/deferred-commit.ts';
import type { Principal } from '../domain/principal.ts';
import type { AppContext } from './context.ts';

/** The idempotency key this request holds while it runs, and what its stored answer will carry. */
export interface HeldIdempotencyKey {
  credential: string;
  key: string;
  fingerprint: string;
  createdAt: string;
  expiresAt: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** Set by the auth pre-handler; routes behind it may rely on it. */
    principal: Principal | null;
    /** The JSON body as received, before parsing (for idempotency fingerprints). */
    rawBody: string;
    idempotency: HeldIdempotencyKey | null;
    /** A keyed write's deferred commit on a shared database (http/idempotency.ts); else null. */
    deferred: DeferredCommit | null;
  }
}

/** Declares the per-request state on the root, before any plugin is registered. */
export function decorateApp(app: FastifyInstance, ctx: AppContext): void {
  app.decorate('ctx', ctx);
  app.decorateRequest('principal', null);
  app.decorateRequest('rawBody', '');
  app.decorateRequest('idempotency', null);
  app.decorateRequest('deferred', null);
}

/**
 * The context a request's work runs in: the app's, with the request's deferred commit when it holds
 * one (its write transactions then wait for its answer: db/deferred-commit.ts).
 */
export function contextOf(request: FastifyRequest): AppContext {
  const { ctx } = request.server;
  return request.deferred === null ? ctx : { ...ctx, deferred: request.deferred };
}

/** The principal of an authenticated request (the auth pre-handler ran). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route is missing its authentication pre-handler');
  return request.principal;
}
