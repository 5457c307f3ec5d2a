// Who is calling, and the teams, boards and lists they reach.
import { PaginationQuery } from '../../schemas/common.ts';
import { Me } from '../../schemas/v2/me.ts';
import {
  Board,
  BoardMember,
  CreateBoardRequest,
  CreateListRequest,
  List,
  ListBoardsQuery,
  Team,
  UpdateBoardRequest,
  UpdateListRequest,
} from '../../schemas/v2/teams.ts';
import { ID, operation } from '../operation.ts';

export const me = {
  get: operation({
    method: 'GET',
    path: '/v2/me',
    operationId: 'getMe',
    tag: 'Identity',
    summary: 'Who the credentials belong to',
    description:
      'Needs no scope: use it to check a key. `key` describes the key used; it is left out when the caller ' +
      'authenticated with a v1 session token (legacy token auth).',
    data: Me,
  }),
};

// Not gated on the subscription: a client learns here which teams are paid.
export const teams = {
  list: operation({
    method: 'GET',
    path: '/v2/teams',
    operationId: 'listTeams',
    tag: 'Teams and boards',
    summary: 'List the caller’s teams',
    description:
      'Every team the caller belongs to, paid or not, each with its `subscription`: not gated, so that a ' +
      'client can learn here which teams are paid.',
    scopes: ['boards.read'],
    query: PaginationQuery,
    page: Team,
  }),
  get: operation({
    method: 'GET',
    path: '/v2/teams/{id}',
    operationId: 'getTeam',
    tag: 'Teams and boards',
    summary: 'Get a team',
    description: 'Not gated on the subscription. A team the caller does not belong to is a 404.',
    scopes: ['boards.read'],
    pathParams: ID.team,
    data: Team,
  }),
};

export const boards = {
  // Every list endpoint paginates (docs/pagination.md), so the team filter comes with limit and cursor.
  list: operation({
    method: 'GET',
    path: '/v2/boards',
    operationId: 'listBoards',
    tag: 'Teams and boards',
    summary: 'List a team’s boards',
    scopes: ['boards.read'],
    query: PaginationQuery.extend(ListBoardsQuery.shape),
    page: Board,
    gated: true,
  }),
  listPersonal: operation({
    method: 'GET',
    path: '/v2/personal-boards',
    operationId: 'listPersonalBoards',
    tag: 'Teams and boards',
    summary: 'List the caller’s personal boards',
    description:
      'Not in the spec, which lists boards by team only: the boards the caller owns, with no team ' +
      '(`team_id` and `subscription` null), by name. Tasks may be made there like on a team board.',
    scopes: ['boards.read'],
    query: PaginationQuery,
    page: Board,
  }),
  create: operation({
    method: 'POST',
    path: '/v2/boards',
    operationId: 'createBoard',
    tag: 'Teams and boards',
    summary: 'Create a shared board under a team',
    scopes: ['boards.write'],
    body: CreateBoardRequest,
    data: Board,
    gated: true,
  }),
  get: operation({
    method: 'GET',
    path: '/v2/boards/{id}',
    operationId: 'getBoard',
    tag: 'Teams and boards',
    summary: 'Get a board',
    scopes: ['boards.read'],
    pathParams: ID.board,
    data: Board,
    gated: true,
  }),
  update: operation({
    method: 'PATCH',
    path: '/v2/boards/{id}',
    operationId: 'updateBoard',
    tag: 'Teams and boards',
    summary: 'Rename a board',
    scopes: ['boards.write'],
    pathParams: ID.board,
    body: UpdateBoardRequest,
    data: Board,
    gated: true,
  }),
  members: operation({
    method: 'GET',
    path: '/v2/boards/{id}/members',
    operationId: 'listBoardMembers',
    tag: 'Teams and boards',
    summary: 'List who may be assigned the board’s tasks',
    description:
      'A team board’s members are its team’s members; a personal board’s only member is its owner. ' +
      'These are the people v1 `items/assignTask` accepts as `assigneeEmail`. Ordered by email. A board ' +
      'the caller cannot see answers 404.',
    scopes: ['boards.read'],
    pathParams: ID.board,
    query: PaginationQuery,
    page: BoardMember,
    gated: true,
  }),
};

export const lists = {
  list: operation({
    method: 'GET',
    path: '/v2/boards/{id}/lists',
    operationId: 'listLists',
    tag: 'Lists',
    summary: 'List a board’s lists, in board order',
    scopes: ['lists.read'],
    pathParams: ID.board,
    query: PaginationQuery,
    page: List,
    gated: true,
  }),
  create: operation({
    method: 'POST',
    path: '/v2/boards/{id}/lists',
    operationId: 'createList',
    tag: 'Lists',
    summary: 'Add a list to a board',
    scopes: ['lists.write'],
    pathParams: ID.board,
    body: CreateListRequest,
    data: List,
    gated: true,
  }),
  update: operation({
    method: 'PATCH',
    path: '/v2/lists/{id}',
    operationId: 'updateList',
    tag: 'Lists',
    summary: 'Rename a list',
    scopes: ['lists.write'],
    pathParams: ID.list,
    body: UpdateListRequest,
    data: List,
    gated: true,
  }),
};
