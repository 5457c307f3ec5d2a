// What the OpenAPI document says about the routes of `lists.ts`: one entry per route, beside it.
import { CreateListRequest, List, PaginationQuery, UpdateListRequest } from '@threadwork/shared/schemas';
import { GATED, id, type RouteEntry } from '../openapi/entry.ts';

export const LISTS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/boards/{id}/lists',
    operationId: 'listLists',
    tag: 'Lists',
    summary: 'List a board’s lists, in board order',
    auth: 'v2',
    scopes: ['lists.read'],
    pathParams: id.board,
    query: PaginationQuery,
    page: List,
    errors: GATED,
  },
  {
    method: 'POST',
    path: '/v2/boards/{id}/lists',
    operationId: 'createList',
    tag: 'Lists',
    summary: 'Add a list to a board',
    auth: 'v2',
    scopes: ['lists.write'],
    pathParams: id.board,
    body: CreateListRequest,
    data: List,
    errors: GATED,
  },
  {
    method: 'PATCH',
    path: '/v2/lists/{id}',
    operationId: 'updateList',
    tag: 'Lists',
    summary: 'Rename a list',
    auth: 'v2',
    scopes: ['lists.write'],
    pathParams: id.list,
    body: UpdateListRequest,
    data: List,
    errors: GATED,
  },
];
