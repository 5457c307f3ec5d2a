import { teams } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { getTeam, listTeams } from '../../domain/teams.ts';
import { route } from '../route.ts';
import { presentPage, presentTeam } from './present.ts';

// Not gated on the subscription: a client learns here which teams are paid.
export async function teamRoutes(app: FastifyInstance): Promise<void> {
  route(app, teams.list, async ({ ctx, userId, query }) =>
    presentPage(await listTeams(ctx.db, userId, query), presentTeam),
  );

  route(app, teams.get, async ({ ctx, userId, params }) =>
    presentTeam(await getTeam(ctx.db, userId, params.id)),
  );
}
