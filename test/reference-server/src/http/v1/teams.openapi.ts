// What the OpenAPI document says about the routes of `teams.ts`: one entry per route, beside it.
import { V1Team } from '@threadwork/shared/schemas';
import { z } from 'zod';
import type { RouteEntry } from '../openapi/entry.ts';

export const V1_TEAMS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/api/v1/teams',
    operationId: 'v1ListTeams',
    tag: 'v1 (legacy)',
    summary: 'List the user’s teams',
    description: 'Every team, paid or not. v1 answers whole collections: no pagination.',
    auth: 'v1',
    scopes: ['boards.read'],
    bare: z.array(V1Team),
  },
];
