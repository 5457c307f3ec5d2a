// GET /teams: every team of the user, paid or not (like v2, the team list itself is not gated).
import type { FastifyInstance } from 'fastify';
import { listTeams } from '../../domain/teams.ts';
import { v1Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { everyPage, named } from './common.ts';

export async function v1TeamRoutes(app: FastifyInstance): Promise<void> {
  app.get('/teams', { preHandler: v1Guard('boards.read') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const teams = await everyPage((page) => listTeams(app.ctx.db, userId, page));
    return reply.code(200).send(teams.map(named));
  });
}
