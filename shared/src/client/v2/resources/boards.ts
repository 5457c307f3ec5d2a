import type { z } from 'zod';
import { envelope, PaginationQuery } from '../../../schemas/common.ts';
import {
  Board,
  BoardMember,
  CreateBoardRequest,
  ListBoardsQuery,
  UpdateBoardRequest,
} from '../../../schemas/v2/teams.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const BoardEnvelope = envelope(Board);
const BoardListEnvelope = envelope(Board.array());
const BoardMemberListEnvelope = envelope(BoardMember.array());
// Every list endpoint paginates (docs/pagination.md), so the team filter comes with limit and cursor.
const ListBoardsPageQuery = PaginationQuery.extend(ListBoardsQuery.shape);

export class BoardsResource extends Resource {
  /** GET /boards?team_id= */
  list(
    params: ListParams<z.output<typeof ListBoardsPageQuery>>,
    options?: RequestOptions,
  ): PagePromise<Board> {
    return this.transport.list(
      () => ({ path: '/boards', query: parseQuery(ListBoardsPageQuery, params) }),
      BoardListEnvelope,
      options,
    );
  }

  /** GET /personal-boards: the caller's own boards, which belong to no team (not in the spec). */
  listPersonal(params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<Board> {
    return this.transport.list(
      () => ({ path: '/personal-boards', query: parseQuery(PaginationQuery, params) }),
      BoardListEnvelope,
      options,
    );
  }

  /** POST /boards: a shared board under the team. */
  async create(body: z.input<typeof CreateBoardRequest>, options?: RequestOptions): Promise<Board> {
    const payload = parseRequest(CreateBoardRequest, body);
    return this.transport.request('POST', '/boards', BoardEnvelope, payload, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Board> {
    return this.transport.request(
      'GET',
      `/boards/${pathId(id, 'board id')}`,
      BoardEnvelope,
      undefined,
      options,
    );
  }

  /** PATCH /boards/{id} */
  async update(
    id: string,
    body: z.input<typeof UpdateBoardRequest>,
    options?: RequestOptions,
  ): Promise<Board> {
    const path = `/boards/${pathId(id, 'board id')}`;
    return this.transport.request(
      'PATCH',
      path,
      BoardEnvelope,
      parseRequest(UpdateBoardRequest, body),
      options,
    );
  }

  /** GET /boards/{id}/members: who may be assigned the board's tasks (its team's members, or its owner). */
  members(
    boardId: string,
    params?: ListParams<PaginationQuery>,
    options?: RequestOptions,
  ): PagePromise<BoardMember> {
    return this.transport.list(
      () => ({
        path: `/boards/${pathId(boardId, 'board id')}/members`,
        query: parseQuery(PaginationQuery, params),
      }),
      BoardMemberListEnvelope,
      options,
    );
  }
}
