import { lists } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { createList, listBoardLists, renameList } from '../../domain/lists.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';
import { presentList, presentPage } from './present.ts';

export async function listRoutes(app: FastifyInstance): Promise<void> {
  route(app, lists.list, async ({ ctx, userId, params, query }) =>
    presentPage(await listBoardLists(ctx.db, userId, params.id, query), presentList),
  );

  route(app, lists.create, async ({ ctx, userId, params, body }) =>
    presentList(
      await runInTransaction(ctx, (trx) => createList(trx, userId, params.id, body, ctx.now()), 'rows'),
    ),
  );

  route(app, lists.update, async ({ ctx, userId, params, body }) =>
    presentList(await runInTransaction(ctx, (trx) => renameList(trx, userId, params.id, body.name), 'rows')),
  );
}
