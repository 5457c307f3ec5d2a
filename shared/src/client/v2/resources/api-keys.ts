import type { z } from 'zod';
import { Deleted, envelope, PaginationQuery } from '../../../schemas/common.ts';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../../../schemas/v2/keys.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const ApiKeyListEnvelope = envelope(ApiKey.array());
const CreatedApiKeyEnvelope = envelope(CreatedApiKey);
const DeletedEnvelope = envelope(Deleted);

export class ApiKeysResource extends Resource {
  /** GET /api-keys: never their secrets. */
  list(params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<ApiKey> {
    return this.transport.list(
      () => ({ path: '/api-keys', query: parseQuery(PaginationQuery, params) }),
      ApiKeyListEnvelope,
      options,
    );
  }

  /** POST /api-keys: the answer carries the secret, this once. */
  async create(body: z.input<typeof CreateApiKeyRequest>, options?: RequestOptions): Promise<CreatedApiKey> {
    const payload = parseRequest(CreateApiKeyRequest, body);
    return this.transport.request('POST', '/api-keys', CreatedApiKeyEnvelope, payload, options);
  }

  async delete(id: string, options?: RequestOptions): Promise<Deleted> {
    const path = `/api-keys/${pathId(id, 'API key id')}`;
    return this.transport.request('DELETE', path, DeletedEnvelope, undefined, options);
  }
}
