import { PaginationQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { getTeam, listTeams } from '../../domain/teams.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';
import { presentTeam } from './present.ts';

// Not gated on the subscription: a client learns here which teams are paid.
export async function teamRoutes(app: FastifyInstance): Promise<void> {
  app.get('/teams', { preHandler: v2Guard('boards.read') }, async (request, reply) => {
    const page = parseRequest(PaginationQuery, request.query, 'query');
    const result = await listTeams(app.ctx.db, principalOf(request).userId, page);
    return ok(reply, result.items.map(presentTeam), result.pagination);
  });

  app.get<{ Params: { id: string } }>(
    '/teams/:id',
    { preHandler: v2Guard('boards.read') },
    async (request, reply) => {
      const team = await getTeam(app.ctx.db, principalOf(request).userId, request.params.id);
      return ok(reply, presentTeam(team));
    },
  );
}
