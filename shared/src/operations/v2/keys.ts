// The caller's API keys (the extension's API tab).
import { PaginationQuery } from '../../schemas/common.ts';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey, RevokedApiKey } from '../../schemas/v2/keys.ts';
import { ID, operation } from '../operation.ts';

export const apiKeys = {
  list: operation({
    method: 'GET',
    path: '/v2/api-keys',
    operationId: 'listApiKeys',
    tag: 'API keys',
    summary: 'List the caller’s API keys',
    description:
      'Never shows a secret. Every key shows the scopes it holds (a legacy key’s are those its session ' +
      'tokens carry, on v1 and v2); a legacy key shows its public `api_key`. `subscriptions` counts what ' +
      'revoking the key would stop: its active v2 webhook subscriptions and its v1 hooks.',
    scopes: ['keys.manage'],
    query: PaginationQuery,
    page: ApiKey,
  }),
  create: operation({
    method: 'POST',
    path: '/v2/api-keys',
    operationId: 'createApiKey',
    tag: 'API keys',
    summary: 'Create an API key',
    description:
      'A v2 key answers its `secret`, a legacy key its `api_key` and `api_secret` (alphanumeric, for the ' +
      'token endpoint): returned this once, stored hashed. Either kind holds the `scopes` named, or, without ' +
      '`scopes`, every scope but the opt-in ones (email.send, drafts.delete), which are granted only by ' +
      'name. The caller may grant only scopes it holds itself: asking for one it lacks answers 403 ' +
      '`insufficient_scope` naming the first one lacking, and creates nothing.',
    scopes: ['keys.manage'],
    body: CreateApiKeyRequest,
    data: CreatedApiKey,
  }),
  delete: operation({
    method: 'DELETE',
    path: '/v2/api-keys/{id}',
    operationId: 'deleteApiKey',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description:
      'The key stops working at once, and so do the v1 session tokens minted from it. In the same change, ' +
      'its active v2 webhook subscriptions are disabled (`disabled_reason: key_revoked`, kept; events are ' +
      'recorded as suppressed deliveries) and its v1 hooks deleted; deliveries already queued for them ' +
      'never go out. The answer counts them.',
    scopes: ['keys.manage'],
    pathParams: ID.key,
    data: RevokedApiKey,
  }),
};
