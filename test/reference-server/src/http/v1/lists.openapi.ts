// What the OpenAPI document says about the routes of `lists.ts`: one entry per route, beside it.
import { V1ListListsQuery, V1Team } from '@threadwork/shared/schemas';
import { z } from 'zod';
import { GATED, type RouteEntry } from '../openapi/entry.ts';

export const V1_LISTS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/api/v1/lists',
    operationId: 'v1ListLists',
    tag: 'v1 (legacy)',
    summary: 'List a board’s lists',
    auth: 'v1',
    scopes: ['lists.read'],
    query: V1ListListsQuery,
    bare: z.array(V1Team),
    errors: GATED,
  },
];
