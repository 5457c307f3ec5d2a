// GET /lists?boardId=: the lists of one board in board order, gated like the board.
import { V1ListListsQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { listBoardLists } from '../../domain/lists.ts';
import { v1Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';
import { everyPage, named } from './common.ts';

export async function v1ListRoutes(app: FastifyInstance): Promise<void> {
  app.get('/lists', { preHandler: v1Guard('lists.read') }, async (request, reply) => {
    const { boardId } = parseRequest(V1ListListsQuery, request.query, 'query');
    const userId = principalOf(request).userId;
    const lists = await everyPage((page) => listBoardLists(app.ctx.db, userId, boardId, page));
    return reply.code(200).send(lists.map(named));
  });
}
