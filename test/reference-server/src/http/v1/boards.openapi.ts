// What the OpenAPI document says about the routes of `boards.ts`: one entry per route, beside it.
import { V1ListBoardsQuery, V1Team } from '@threadwork/shared/schemas';
import { z } from 'zod';
import { GATED, type RouteEntry } from '../openapi/entry.ts';

export const V1_BOARDS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/api/v1/boards',
    operationId: 'v1ListBoards',
    tag: 'v1 (legacy)',
    summary: 'List a team’s boards',
    auth: 'v1',
    scopes: ['boards.read'],
    query: V1ListBoardsQuery,
    bare: z.array(V1Team),
    errors: GATED,
  },
];
