// What the OpenAPI document says about the routes of `api-keys.ts`: one entry per route, beside it.
import {
  ApiKey,
  CreateApiKeyRequest,
  CreatedApiKey,
  Deleted,
  PaginationQuery,
} from '@threadwork/shared/schemas';
import { id, type RouteEntry } from '../openapi/entry.ts';

export const API_KEYS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/api-keys',
    operationId: 'listApiKeys',
    tag: 'API keys',
    summary: 'List the caller’s API keys',
    description: 'Never shows a secret; a legacy key shows its public `api_key`.',
    auth: 'v2',
    scopes: ['keys.manage'],
    query: PaginationQuery,
    page: ApiKey,
  },
  {
    method: 'POST',
    path: '/v2/api-keys',
    operationId: 'createApiKey',
    tag: 'API keys',
    summary: 'Create an API key',
    description:
      'A v2 key answers its `secret`, a legacy key its `api_key` and `api_secret` (for the token endpoint): ' +
      'returned this once, stored hashed. A v2 key created without `scopes` gets every scope but the opt-in ' +
      'ones (email.send, drafts.delete).',
    auth: 'v2',
    scopes: ['keys.manage'],
    body: CreateApiKeyRequest,
    data: CreatedApiKey,
  },
  {
    method: 'DELETE',
    path: '/v2/api-keys/{id}',
    operationId: 'deleteApiKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description: 'The key stops working at once, and so do the v1 session tokens minted from it.',
    auth: 'v2',
    scopes: ['keys.manage'],
    pathParams: id.key,
    data: Deleted,
  },
];
