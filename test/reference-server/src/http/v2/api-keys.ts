import { CreateApiKeyRequest, PaginationQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const guard = v2Guard('keys.manage');

  app.get('/api-keys', { preHandler: guard }, async (request, reply) => {
    const page = parseRequest(PaginationQuery, request.query, 'query');
    const result = await listApiKeys(app.ctx.db, principalOf(request).userId, page);
    return ok(reply, result.items, result.pagination);
  });

  app.post('/api-keys', { preHandler: guard }, async (request, reply) => {
    const input = parseRequest(CreateApiKeyRequest, request.body, 'body');
    return ok(reply, await createApiKey(app.ctx.db, principalOf(request), input, app.ctx.now()));
  });

  app.delete<{ Params: { id: string } }>('/api-keys/:id', { preHandler: guard }, async (request, reply) =>
    ok(reply, await revokeApiKey(app.ctx, principalOf(request).userId, request.params.id)),
  );
}
