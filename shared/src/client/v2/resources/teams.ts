import { envelope, PaginationQuery } from '../../../schemas/common.ts';
import { Team } from '../../../schemas/v2/teams.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const TeamEnvelope = envelope(Team);
const TeamListEnvelope = envelope(Team.array());

export class TeamsResource extends Resource {
  /** GET /teams: every team of the caller, with its subscription. */
  list(params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<Team> {
    return this.transport.list(
      () => ({ path: '/teams', query: parseQuery(PaginationQuery, params) }),
      TeamListEnvelope,
      options,
    );
  }

  async get(id: string, options?: RequestOptions): Promise<Team> {
    return this.transport.request('GET', `/teams/${pathId(id, 'team id')}`, TeamEnvelope, undefined, options);
  }
}
