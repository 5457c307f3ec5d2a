// What the OpenAPI document says about the routes of `subscriptions.ts`: one entry per route, beside it.
import { V1SubscribeRequest, V1Subscription, V1UnsubscribeRequest } from '@threadwork/shared/schemas';
import { GATED, type RouteEntry } from '../openapi/entry.ts';

export const V1_SUBSCRIPTIONS_ROUTES: readonly RouteEntry[] = [
  ...(['items', 'lists'] as const).flatMap((object): RouteEntry[] => [
    {
      method: 'POST',
      path: `/api/v1/${object}/subscribe`,
      operationId: `v1Subscribe${object === 'items' ? 'Items' : 'Lists'}`,
      tag: 'v1 (legacy)',
      summary: `Subscribe a hook on ${object}`,
      description:
        'The hook POSTs the item (no envelope, no signature) with `x-service-event-id`, unique per event. ' +
        'A 410 answer deletes the subscription. `webhookURL` follows the v2 target rule (https; never ' +
        'this server itself).',
      auth: 'v1',
      scopes: ['webhooks.manage'],
      body: V1SubscribeRequest,
      bare: V1Subscription,
      errors: GATED,
    },
    {
      method: 'POST',
      path: `/api/v1/${object}/unsubscribe`,
      operationId: `v1Unsubscribe${object === 'items' ? 'Items' : 'Lists'}`,
      tag: 'v1 (legacy)',
      summary: `Cancel a hook on ${object}`,
      auth: 'v1',
      scopes: ['webhooks.manage'],
      body: V1UnsubscribeRequest,
      bare: null,
    },
  ]),
];
