// What the OpenAPI document says about the routes of `boards.ts`: one entry per route, beside it.
import {
  Board,
  BoardMember,
  CreateBoardRequest,
  ListBoardsQuery,
  PaginationQuery,
  UpdateBoardRequest,
} from '@threadwork/shared/schemas';
import { GATED, id, type RouteEntry } from '../openapi/entry.ts';

export const BOARDS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/boards',
    operationId: 'listBoards',
    tag: 'Teams and boards',
    summary: 'List a team’s boards',
    auth: 'v2',
    scopes: ['boards.read'],
    query: PaginationQuery.extend(ListBoardsQuery.shape),
    page: Board,
    errors: GATED,
  },
  {
    method: 'GET',
    path: '/v2/personal-boards',
    operationId: 'listPersonalBoards',
    tag: 'Teams and boards',
    summary: 'List the caller’s personal boards',
    description:
      'Not in the spec, which lists boards by team only: the boards the caller owns, with no team ' +
      '(`team_id` and `subscription` null), by name. Tasks may be made there like on a team board.',
    auth: 'v2',
    scopes: ['boards.read'],
    query: PaginationQuery,
    page: Board,
  },
  {
    method: 'POST',
    path: '/v2/boards',
    operationId: 'createBoard',
    tag: 'Teams and boards',
    summary: 'Create a shared board under a team',
    auth: 'v2',
    scopes: ['boards.write'],
    body: CreateBoardRequest,
    data: Board,
    errors: GATED,
  },
  {
    method: 'GET',
    path: '/v2/boards/{id}',
    operationId: 'getBoard',
    tag: 'Teams and boards',
    summary: 'Get a board',
    auth: 'v2',
    scopes: ['boards.read'],
    pathParams: id.board,
    data: Board,
    errors: GATED,
  },
  {
    method: 'PATCH',
    path: '/v2/boards/{id}',
    operationId: 'updateBoard',
    tag: 'Teams and boards',
    summary: 'Rename a board',
    auth: 'v2',
    scopes: ['boards.write'],
    pathParams: id.board,
    body: UpdateBoardRequest,
    data: Board,
    errors: GATED,
  },
  {
    method: 'GET',
    path: '/v2/boards/{id}/members',
    operationId: 'listBoardMembers',
    tag: 'Teams and boards',
    summary: 'List who may be assigned the board’s tasks',
    description:
      'A team board’s members are its team’s members; a personal board’s only member is its owner. ' +
      'These are the people v1 `items/assignTask` accepts as `assigneeEmail`. Ordered by email. A board ' +
      'the caller cannot see answers 404.',
    auth: 'v2',
    scopes: ['boards.read'],
    pathParams: id.board,
    query: PaginationQuery,
    page: BoardMember,
    errors: GATED,
  },
];
