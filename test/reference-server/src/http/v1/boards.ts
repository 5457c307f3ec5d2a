// GET /boards?teamId=: the boards of one team, gated like v2 (404 unknown or foreign team, 402 unpaid).
import { V1ListBoardsQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { listTeamBoards } from '../../domain/boards.ts';
import { v1Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';
import { everyPage, named } from './common.ts';

export async function v1BoardRoutes(app: FastifyInstance): Promise<void> {
  app.get('/boards', { preHandler: v1Guard('boards.read') }, async (request, reply) => {
    const { teamId } = parseRequest(V1ListBoardsQuery, request.query, 'query');
    const userId = principalOf(request).userId;
    const boards = await everyPage((page) => listTeamBoards(app.ctx.db, userId, teamId, page));
    return reply.code(200).send(boards.map(named));
  });
}
