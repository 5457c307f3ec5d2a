import type { z } from 'zod';
import { envelope } from '../../../schemas/common.ts';
import {
  Company,
  CreateCompanyRequest,
  SearchCrmQuery,
  UpdateCompanyRequest,
} from '../../../schemas/v2/crm.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const CompanyEnvelope = envelope(Company);
const CompanyListEnvelope = envelope(Company.array());

export class CompaniesResource extends Resource {
  /** GET /companies?team_id=&q= */
  list(params: ListParams<SearchCrmQuery>, options?: RequestOptions): PagePromise<Company> {
    return this.transport.list(
      () => ({ path: '/companies', query: parseQuery(SearchCrmQuery, params) }),
      CompanyListEnvelope,
      options,
    );
  }

  async create(body: z.input<typeof CreateCompanyRequest>, options?: RequestOptions): Promise<Company> {
    const payload = parseRequest(CreateCompanyRequest, body);
    return this.transport.request('POST', '/companies', CompanyEnvelope, payload, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Company> {
    const path = `/companies/${pathId(id, 'company id')}`;
    return this.transport.request('GET', path, CompanyEnvelope, undefined, options);
  }

  async update(
    id: string,
    body: z.input<typeof UpdateCompanyRequest>,
    options?: RequestOptions,
  ): Promise<Company> {
    const path = `/companies/${pathId(id, 'company id')}`;
    const payload = parseRequest(UpdateCompanyRequest, body);
    return this.transport.request('PATCH', path, CompanyEnvelope, payload, options);
  }
}
