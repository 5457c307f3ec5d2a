import type { FastifyInstance } from 'fastify';
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
  }
}

/** Declares the per-request state on the root, before any plugin is registered. */
export function decorateApp(app: FastifyInstance, ctx: AppContext): void {
  app.decorate('ctx', ctx);
  app.decorateRequest('principal', null);
  app.decorateRequest('rawBody', '');
  app.decorateRequest('idempotency', null);
}

/** The principal of an authenticated request (the auth pre-handler ran). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route is missing its authentication pre-handler');
  return request.principal;
}
