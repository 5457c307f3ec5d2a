import { apiKeys } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.ts';
import { route } from '../route.ts';

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  route(app, apiKeys.list, ({ ctx, userId, query }) => listApiKeys(ctx.db, userId, query));

  route(app, apiKeys.create, ({ ctx, principal, body }) => createApiKey(ctx, principal, body, ctx.now()));

  route(app, apiKeys.delete, ({ ctx, userId, params }) => revokeApiKey(ctx, userId, params.id));
}
