// GET /boards?teamId=: the boards of one team, gated like v2 (404 unknown or foreign team, 402 unpaid).
import { v1 } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { listTeamBoards } from '../../domain/boards.ts';
import { route } from '../route.ts';
import { everyPage, named } from './common.ts';

export async function v1BoardRoutes(app: FastifyInstance): Promise<void> {
  route(app, v1.boards, async ({ userId, query }) =>
    (await everyPage((page) => listTeamBoards(app.ctx.db, userId, query.teamId, page))).map(named),
  );
}
