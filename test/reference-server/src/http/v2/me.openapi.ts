// What the OpenAPI document says about the routes of `me.ts`: one entry per route, beside it.
import { Me } from '@threadwork/shared/schemas';
import type { RouteEntry } from '../openapi/entry.ts';

export const ME_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/me',
    operationId: 'getMe',
    tag: 'Identity',
    summary: 'Who the credentials belong to',
    description:
      'Needs no scope: use it to check a key. `key` describes the key used; it is left out when the caller ' +
      'authenticated with a v1 session token (legacy token auth).',
    auth: 'v2',
    data: Me,
  },
];
