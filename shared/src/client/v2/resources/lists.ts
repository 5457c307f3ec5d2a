import type { z } from 'zod';
import { envelope, PaginationQuery } from '../../../schemas/common.ts';
import { CreateListRequest, List, UpdateListRequest } from '../../../schemas/v2/teams.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const ListEnvelope = envelope(List);
const ListListEnvelope = envelope(List.array());

export class ListsResource extends Resource {
  /** GET /boards/{id}/lists */
  list(boardId: string, params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<List> {
    return this.transport.list(
      () => ({
        path: `/boards/${pathId(boardId, 'board id')}/lists`,
        query: parseQuery(PaginationQuery, params),
      }),
      ListListEnvelope,
      options,
    );
  }

  /** POST /boards/{id}/lists */
  async create(
    boardId: string,
    body: z.input<typeof CreateListRequest>,
    options?: RequestOptions,
  ): Promise<List> {
    const path = `/boards/${pathId(boardId, 'board id')}/lists`;
    return this.transport.request('POST', path, ListEnvelope, parseRequest(CreateListRequest, body), options);
  }

  /** PATCH /lists/{id} */
  async update(id: string, body: z.input<typeof UpdateListRequest>, options?: RequestOptions): Promise<List> {
    const path = `/lists/${pathId(id, 'list id')}`;
    return this.transport.request(
      'PATCH',
      path,
      ListEnvelope,
      parseRequest(UpdateListRequest, body),
      options,
    );
  }
}
