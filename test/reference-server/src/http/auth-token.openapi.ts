// What the OpenAPI document says about the routes of `auth-token.ts`: one entry per route, beside it.
import { V1TokenRequest, V1TokenResponse } from '@threadwork/shared/schemas';
import type { RouteEntry } from './openapi/entry.ts';

export const AUTH_TOKEN_ROUTES: readonly RouteEntry[] = [
  {
    method: 'POST',
    path: '/auth/api_token',
    operationId: 'createSessionToken',
    tag: 'v1 (legacy)',
    summary: 'Exchange a legacy key for a session token',
    description:
      'Takes `email`, `api_key`, `api_secret` and `api_key_name` from the JSON body or, for each one missing ' +
      'there, from the query string. Answers a JWT (HS256) valid for 20 minutes, to send as `x-access-token` ' +
      'to v1 and to v2 (legacy token auth). A wrong credential is a 401 whose `details.field` names it.',
    auth: 'none',
    query: V1TokenRequest.partial(),
    body: V1TokenRequest.partial(),
    bodyOptional: true,
    bare: V1TokenResponse,
  },
];
