import { boards } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import {
  createSharedBoard,
  getBoard,
  listBoardMembers,
  listPersonalBoards,
  listTeamBoards,
  renameBoard,
} from '../../domain/boards.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';
import { presentBoard, presentPage } from './present.ts';

export async function boardRoutes(app: FastifyInstance): Promise<void> {
  route(app, boards.list, async ({ ctx, userId, query: { team_id, ...page } }) =>
    presentPage(await listTeamBoards(ctx.db, userId, team_id, page), presentBoard),
  );

  route(app, boards.listPersonal, async ({ ctx, userId, query }) =>
    presentPage(await listPersonalBoards(ctx.db, userId, query), presentBoard),
  );

  route(app, boards.create, async ({ ctx, userId, body }) =>
    presentBoard(
      await runInTransaction(ctx, (trx) => createSharedBoard(trx, userId, body, ctx.now()), 'rows'),
    ),
  );

  route(app, boards.get, async ({ ctx, userId, params }) =>
    presentBoard(await getBoard(ctx.db, userId, params.id)),
  );

  route(app, boards.update, async ({ ctx, userId, params, body }) =>
    presentBoard(
      await runInTransaction(ctx, (trx) => renameBoard(trx, userId, params.id, body.name), 'rows'),
    ),
  );

  route(app, boards.members, ({ ctx, userId, params, query }) =>
    listBoardMembers(ctx.db, userId, params.id, query),
  );
}
