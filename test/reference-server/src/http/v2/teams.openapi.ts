// What the OpenAPI document says about the routes of `teams.ts`: one entry per route, beside it.
import { PaginationQuery, Team } from '@threadwork/shared/schemas';
import { id, type RouteEntry } from '../openapi/entry.ts';

export const TEAMS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/teams',
    operationId: 'listTeams',
    tag: 'Teams and boards',
    summary: 'List the caller’s teams',
    description:
      'Every team the caller belongs to, paid or not, each with its `subscription`: not gated, so that a ' +
      'client can learn here which teams are paid.',
    auth: 'v2',
    scopes: ['boards.read'],
    query: PaginationQuery,
    page: Team,
  },
  {
    method: 'GET',
    path: '/v2/teams/{id}',
    operationId: 'getTeam',
    tag: 'Teams and boards',
    summary: 'Get a team',
    description: 'Not gated on the subscription. A team the caller does not belong to is a 404.',
    auth: 'v2',
    scopes: ['boards.read'],
    pathParams: id.team,
    data: Team,
  },
];
