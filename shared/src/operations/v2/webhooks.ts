// Webhook subscriptions and their delivery log.
import { Deleted, PaginationQuery } from '../../schemas/common.ts';
import {
  CreatedWebhookSubscription,
  CreateWebhookRequest,
  ListDeliveriesQuery,
  RotatedSecret,
  UpdateWebhookRequest,
  WebhookDelivery,
  WebhookSubscription,
} from '../../schemas/v2/webhooks.ts';
import { ID, operation } from '../operation.ts';

export const webhooks = {
  create: operation({
    method: 'POST',
    path: '/v2/webhooks/subscriptions',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Subscribe a URL to events',
    description:
      'The signing `secret` is answered this once. Deliveries are POSTs signed in `x-service-signature` ' +
      '(`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one `v1=` per active secret) with ' +
      '`x-service-event-id` and `x-service-delivery-id`; retried immediately, after 5 s, 5 min, 30 min, 2 h, ' +
      '5 h, 10 h and 10 h (±10 %), 15 s time-out each. A 410 answer disables the subscription, and so do ' +
      'five days of nothing but failures. `target_url` must be HTTPS unless the server runs with ' +
      '`--allow-insecure-webhooks` (then loopback http is accepted), and never points at this server ' +
      'itself: a loopback host at a port it listens on is refused (400 `validation_error`), except the ' +
      'console’s test receiver `/_console/receiver`. The subscription belongs to the key ' +
      'that made it (`key_id`; with a v1 session token, its legacy key): revoking that key disables it ' +
      '(`disabled_reason: key_revoked`). A key revoked while this runs answers 401 and subscribes nothing.',
    scopes: ['webhooks.manage'],
    body: CreateWebhookRequest,
    data: CreatedWebhookSubscription,
  }),
  list: operation({
    method: 'GET',
    path: '/v2/webhooks/subscriptions',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List the caller’s webhook subscriptions',
    scopes: ['webhooks.manage'],
    query: PaginationQuery,
    page: WebhookSubscription,
  }),
  get: operation({
    method: 'GET',
    path: '/v2/webhooks/subscriptions/{id}',
    operationId: 'getWebhook',
    tag: 'Webhooks',
    summary: 'Get a webhook subscription',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    data: WebhookSubscription,
  }),
  update: operation({
    method: 'PATCH',
    path: '/v2/webhooks/subscriptions/{id}',
    operationId: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Update a webhook subscription',
    description:
      '`status: disabled` pauses delivery (events are still recorded, as suppressed deliveries); ' +
      '`status: active` resumes it and clears the failure streak; a disabled subscription re-enabled so ' +
      'becomes the calling key’s (`key_id`), whatever disabled it. `filters: null` clears the filters.',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    body: UpdateWebhookRequest,
    data: WebhookSubscription,
  }),
  delete: operation({
    method: 'DELETE',
    path: '/v2/webhooks/subscriptions/{id}',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook subscription',
    description: 'Deliveries still owed to it are marked failed and stay in the log.',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    data: Deleted,
  }),
  test: operation({
    method: 'POST',
    path: '/v2/webhooks/subscriptions/{id}/test',
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a webhook.test event to this subscription alone',
    description: 'Answers the queued delivery.',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    data: WebhookDelivery,
  }),
  rotateSecret: operation({
    method: 'POST',
    path: '/v2/webhooks/subscriptions/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret once. The previous secret keeps signing (a second `v1=`) for 24 hours.',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    data: RotatedSecret,
  }),
  listDeliveries: operation({
    method: 'GET',
    path: '/v2/webhooks/subscriptions/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'The delivery log of a subscription, newest first',
    description:
      'Each delivery carries its attempts: outcome, the receiver’s status code, duration, error, and the ' +
      'receiver’s answer as Stripe shows it (`response_content_type`, and `response_body`: the first 4 KiB ' +
      'of the body as UTF-8 text, the request’s signature removed if echoed; both null when no answer ' +
      'came). `suppressed`: recorded while the subscription was disabled, or stopped because another ' +
      'delivery of the same event to it (a retry or a replay) succeeded.',
    scopes: ['webhooks.manage'],
    pathParams: ID.webhook,
    query: ListDeliveriesQuery,
    page: WebhookDelivery,
  }),
  replayDelivery: operation({
    method: 'POST',
    path: '/v2/webhooks/deliveries/{id}/replay',
    operationId: 'replayWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Deliver an event again',
    description:
      'A new delivery of the same event (the same body) to the same subscription, due now. Once it (or ' +
      'any other delivery of that event to that subscription) succeeds, the others still pending stop as ' +
      '`suppressed`: the original’s retries end.',
    scopes: ['webhooks.manage'],
    pathParams: ID.delivery,
    data: WebhookDelivery,
  }),
};
