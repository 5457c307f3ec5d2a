import type { z } from 'zod';
import { envelope } from '../../../schemas/common.ts';
import {
  Contact,
  CreateContactRequest,
  SearchCrmQuery,
  UpdateContactRequest,
} from '../../../schemas/v2/crm.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const ContactEnvelope = envelope(Contact);
const ContactListEnvelope = envelope(Contact.array());

export class ContactsResource extends Resource {
  /** GET /contacts?team_id=&q= (search answers a company-grouped subset of each contact). */
  list(params: ListParams<SearchCrmQuery>, options?: RequestOptions): PagePromise<Contact> {
    return this.transport.list(
      () => ({ path: '/contacts', query: parseQuery(SearchCrmQuery, params) }),
      ContactListEnvelope,
      options,
    );
  }

  async create(body: z.input<typeof CreateContactRequest>, options?: RequestOptions): Promise<Contact> {
    const payload = parseRequest(CreateContactRequest, body);
    return this.transport.request('POST', '/contacts', ContactEnvelope, payload, options);
  }

  async get(id: string, options?: RequestOptions): Promise<Contact> {
    const path = `/contacts/${pathId(id, 'contact id')}`;
    return this.transport.request('GET', path, ContactEnvelope, undefined, options);
  }

  async update(
    id: string,
    body: z.input<typeof UpdateContactRequest>,
    options?: RequestOptions,
  ): Promise<Contact> {
    const path = `/contacts/${pathId(id, 'contact id')}`;
    const payload = parseRequest(UpdateContactRequest, body);
    return this.transport.request('PATCH', path, ContactEnvelope, payload, options);
  }
}
