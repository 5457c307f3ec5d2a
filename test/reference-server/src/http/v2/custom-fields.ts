import {
  CreateCustomFieldRequest,
  PaginationQuery,
  UpdateCustomFieldRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import {
  createCustomField,
  fieldUpdateLocking,
  listBoardFields,
  updateCustomField,
} from '../../domain/custom-fields.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type WithId = { Params: { id: string } };

export async function customFieldRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  app.get<WithId>(
    '/boards/:id/custom-fields',
    { preHandler: v2Guard('customfields.read') },
    async (request, reply) => {
      const page = parseRequest(PaginationQuery, request.query, 'query');
      const result = await listBoardFields(ctx.db, principalOf(request).userId, request.params.id, page);
      return ok(reply, result.items, result.pagination);
    },
  );

  app.post<WithId>(
    '/boards/:id/custom-fields',
    { preHandler: v2Guard('customfields.write') },
    async (request, reply) => {
      const input = parseRequest(CreateCustomFieldRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const field = await runInTransaction(
        ctx,
        (tx) => createCustomField(tx, userId, request.params.id, input),
        'rows',
      );
      return ok(reply, field);
    },
  );

  app.patch<WithId>(
    '/custom-fields/:id',
    { preHandler: v2Guard('customfields.write') },
    async (request, reply) => {
      const patch = parseRequest(UpdateCustomFieldRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const field = await runInTransaction(
        ctx,
        (tx) => updateCustomField(tx, userId, request.params.id, patch, ctx.now()),
        fieldUpdateLocking(patch),
      );
      return ok(reply, field);
    },
  );
}
