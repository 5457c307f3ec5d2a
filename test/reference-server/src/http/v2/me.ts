import type { FastifyInstance } from 'fastify';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { presentMe } from './present.ts';

export async function meRoutes(app: FastifyInstance): Promise<void> {
  app.get('/me', { preHandler: v2Guard() }, async (request, reply) =>
    ok(reply, presentMe(principalOf(request))),
  );
}
