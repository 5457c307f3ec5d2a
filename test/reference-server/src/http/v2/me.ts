import { me } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { route } from '../route.ts';
import { presentMe } from './present.ts';

export async function meRoutes(app: FastifyInstance): Promise<void> {
  route(app, me.get, async ({ principal }) => presentMe(principal));
}
