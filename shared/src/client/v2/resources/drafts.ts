import type { z } from 'zod';
import { Deleted, envelope, PaginationQuery } from '../../../schemas/common.ts';
import { CreateNewDraftRequest, Draft, SentMessage } from '../../../schemas/v2/email.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const DraftEnvelope = envelope(Draft);
const DraftListEnvelope = envelope(Draft.array());
const SentMessageEnvelope = envelope(SentMessage);
const DeletedEnvelope = envelope(Deleted);

export class DraftsResource extends Resource {
  /** POST /drafts: a new draft outside any thread. */
  async create(body: z.input<typeof CreateNewDraftRequest>, options?: RequestOptions): Promise<Draft> {
    const payload = parseRequest(CreateNewDraftRequest, body);
    return this.transport.request('POST', '/drafts', DraftEnvelope, payload, options);
  }

  list(params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<Draft> {
    return this.transport.list(
      () => ({ path: '/drafts', query: parseQuery(PaginationQuery, params) }),
      DraftListEnvelope,
      options,
    );
  }

  /** POST /drafts/{id}/send (scope email.send, opt-in). */
  async send(id: string, options?: RequestOptions): Promise<SentMessage> {
    const path = `/drafts/${pathId(id, 'draft id')}/send`;
    return this.transport.request('POST', path, SentMessageEnvelope, undefined, options);
  }

  /** DELETE /drafts/{id} (scope drafts.delete, opt-in). */
  async delete(id: string, options?: RequestOptions): Promise<Deleted> {
    const path = `/drafts/${pathId(id, 'draft id')}`;
    return this.transport.request('DELETE', path, DeletedEnvelope, undefined, options);
  }
}
