import { CreateListRequest, PaginationQuery, UpdateListRequest } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { createList, listBoardLists, renameList } from '../../domain/lists.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';
import { presentList } from './present.ts';

export async function listRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { id: string } }>(
    '/boards/:id/lists',
    { preHandler: v2Guard('lists.read') },
    async (request, reply) => {
      const page = parseRequest(PaginationQuery, request.query, 'query');
      const result = await listBoardLists(app.ctx.db, principalOf(request).userId, request.params.id, page);
      return ok(reply, result.items.map(presentList), result.pagination);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/boards/:id/lists',
    { preHandler: v2Guard('lists.write') },
    async (request, reply) => {
      const input = parseRequest(CreateListRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const list = await runInTransaction(
        app.ctx,
        (trx) => createList(trx, userId, request.params.id, input, app.ctx.now()),
        'rows',
      );
      return ok(reply, presentList(list));
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/lists/:id',
    { preHandler: v2Guard('lists.write') },
    async (request, reply) => {
      const { name } = parseRequest(UpdateListRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const list = await runInTransaction(
        app.ctx,
        (trx) => renameList(trx, userId, request.params.id, name),
        'rows',
      );
      return ok(reply, presentList(list));
    },
  );
}
