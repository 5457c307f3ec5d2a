import type { z } from 'zod';
import { Deleted, envelope, PaginationQuery } from '../../../schemas/common.ts';
import {
  CreatedWebhookSubscription,
  CreateWebhookRequest,
  ListDeliveriesQuery,
  RotatedSecret,
  UpdateWebhookRequest,
  WebhookDelivery,
  WebhookSubscription,
} from '../../../schemas/v2/webhooks.ts';
import type { PagePromise } from '../../pagination.ts';
import { type ListParams, parseQuery, parseRequest, pathId, type RequestOptions } from '../../request.ts';
import { Resource } from './resource.ts';

const SubscriptionEnvelope = envelope(WebhookSubscription);
const SubscriptionListEnvelope = envelope(WebhookSubscription.array());
const CreatedSubscriptionEnvelope = envelope(CreatedWebhookSubscription);
const RotatedSecretEnvelope = envelope(RotatedSecret);
const DeliveryEnvelope = envelope(WebhookDelivery);
const DeliveryListEnvelope = envelope(WebhookDelivery.array());
const DeletedEnvelope = envelope(Deleted);

function subscriptionPath(id: string, action = ''): string {
  return `/webhooks/subscriptions/${pathId(id, 'subscription id')}${action}`;
}

export class WebhooksResource extends Resource {
  /** POST /webhooks/subscriptions: the answer carries the signing secret, this once. */
  async create(
    body: z.input<typeof CreateWebhookRequest>,
    options?: RequestOptions,
  ): Promise<CreatedWebhookSubscription> {
    const payload = parseRequest(CreateWebhookRequest, body);
    return this.transport.request(
      'POST',
      '/webhooks/subscriptions',
      CreatedSubscriptionEnvelope,
      payload,
      options,
    );
  }

  list(params?: ListParams<PaginationQuery>, options?: RequestOptions): PagePromise<WebhookSubscription> {
    return this.transport.list(
      () => ({ path: '/webhooks/subscriptions', query: parseQuery(PaginationQuery, params) }),
      SubscriptionListEnvelope,
      options,
    );
  }

  async get(id: string, options?: RequestOptions): Promise<WebhookSubscription> {
    return this.transport.request('GET', subscriptionPath(id), SubscriptionEnvelope, undefined, options);
  }

  /** PATCH /webhooks/subscriptions/{id}: `status: 'active'` also clears the failure streak. */
  async update(
    id: string,
    body: z.input<typeof UpdateWebhookRequest>,
    options?: RequestOptions,
  ): Promise<WebhookSubscription> {
    const payload = parseRequest(UpdateWebhookRequest, body);
    return this.transport.request('PATCH', subscriptionPath(id), SubscriptionEnvelope, payload, options);
  }

  async delete(id: string, options?: RequestOptions): Promise<Deleted> {
    return this.transport.request('DELETE', subscriptionPath(id), DeletedEnvelope, undefined, options);
  }

  /** POST …/{id}/test: sends a `webhook.test` event; answers its delivery. */
  async test(id: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.transport.request(
      'POST',
      subscriptionPath(id, '/test'),
      DeliveryEnvelope,
      undefined,
      options,
    );
  }

  /** POST …/{id}/rotate-secret: the previous secret keeps signing until `previous_secret_expires_at`. */
  async rotateSecret(id: string, options?: RequestOptions): Promise<RotatedSecret> {
    const path = subscriptionPath(id, '/rotate-secret');
    return this.transport.request('POST', path, RotatedSecretEnvelope, undefined, options);
  }

  /** GET …/{id}/deliveries: the delivery log, optionally by status. */
  listDeliveries(
    id: string,
    params?: ListParams<ListDeliveriesQuery>,
    options?: RequestOptions,
  ): PagePromise<WebhookDelivery> {
    return this.transport.list(
      () => ({ path: subscriptionPath(id, '/deliveries'), query: parseQuery(ListDeliveriesQuery, params) }),
      DeliveryListEnvelope,
      options,
    );
  }

  /** POST /webhooks/deliveries/{id}/replay */
  async replayDelivery(deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    const path = `/webhooks/deliveries/${pathId(deliveryId, 'delivery id')}/replay`;
    return this.transport.request('POST', path, DeliveryEnvelope, undefined, options);
  }
}
