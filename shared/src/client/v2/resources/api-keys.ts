import type { z } from 'zod';
import { envelope, PaginationQuery } from '../../../schemas/common.ts';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey, RevokedApiKey } from '../../../schemas/v2/keys.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const ApiKeyListEnvelope = envelope(ApiKey.array());
const CreatedApiKeyEnvelope = envelope(CreatedApiKey);
const RevokedEnvelope = envelope(RevokedApiKey);

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

  /**
   * DELETE /api-keys/{id}: revokes the key at once, disables its v2 webhook subscriptions and deletes its
   * v1 hooks; the answer counts them.
   */
  async delete(id: string, options?: RequestOptions): Promise<RevokedApiKey> {
    const path = `/api-keys/${pathId(id, 'API key id')}`;
    return this.transport.request('DELETE', path, RevokedEnvelope, undefined, options);
  }
}
