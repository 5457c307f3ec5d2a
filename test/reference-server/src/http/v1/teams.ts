// GET /teams: every team of the user, paid or not (like v2, the team list itself is not gated).
import { v1 } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { listTeams } from '../../domain/teams.ts';
import { route } from '../route.ts';
import { everyPage, named } from './common.ts';

export async function v1TeamRoutes(app: FastifyInstance): Promise<void> {
  route(app, v1.teams, async ({ userId }) =>
    (await everyPage((page) => listTeams(app.ctx.db, userId, page))).map(named),
  );
}
