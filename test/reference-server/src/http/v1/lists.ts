// GET /lists?boardId=: the lists of one board in board order, gated like the board.
import { v1 } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { listBoardLists } from '../../domain/lists.ts';
import { route } from '../route.ts';
import { everyPage, named } from './common.ts';

export async function v1ListRoutes(app: FastifyInstance): Promise<void> {
  route(app, v1.lists, async ({ userId, query }) =>
    (await everyPage((page) => listBoardLists(app.ctx.db, userId, query.boardId, page))).map(named),
  );
}
