import { apiKeys } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/api-keys.ts';
import { route } from '../route.ts';

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  route(app, apiKeys.list, ({ userId, query }) => listApiKeys(ctx.db, userId, query));

  route(app, apiKeys.create, ({ principal, body }) => createApiKey(ctx.db, principal, body, ctx.now()));

  route(app, apiKeys.delete, ({ userId, params }) => revokeApiKey(ctx, userId, params.id));
}
