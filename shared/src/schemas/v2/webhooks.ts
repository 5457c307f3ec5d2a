import { z } from 'zod';
import { DateTime, openEnum, PaginationQuery } from '../common.ts';

/** Every v2 event type (docs/webhooks.md). */
export const EVENT_TYPES = [
  'task.created',
  'task.updated',
  'task.completed',
  'task.uncompleted',
  'task.assigned',
  'task.moved',
  'task.archived',
  'task.deleted',
  'thread.reply_received',
  'webhook.test',
] as const;
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

export const FILTER_SCOPES = ['tasked', 'all'] as const;

/** `scope` applies to thread.reply_received: tasked (default) = only threads with an accessible linked task. */
export const WebhookFilters = z.looseObject({ scope: openEnum(FILTER_SCOPES) });
export type WebhookFilters = z.infer<typeof WebhookFilters>;
const WebhookFiltersInput = z.strictObject({ scope: z.enum(FILTER_SCOPES).default('tasked') });

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;

export const WebhookSubscription = z.looseObject({
  id: z.string(),
  target_url: z.string(),
  events: z.array(z.string()),
  status: openEnum(WEBHOOK_STATUSES),
  filters: WebhookFilters.nullable(),
  /** Not in the spec's field table: the reference server sends it, another server may not. */
  created_at: DateTime.optional(),
  /** Why a disabled subscription stopped: `manual` (PATCH), `gone` (a 410 answer), `failing` (5 days of failures). */
  disabled_reason: z.string().nullable().optional(),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/**
 * What creation answers: the spec promises `{ id, target_url, events, secret }` (the secret returned this
 * once); the rest of the subscription may come along.
 */
export const CreatedWebhookSubscription = WebhookSubscription.partial({ status: true, filters: true }).extend(
  {
    secret: z.string(),
  },
);
export type CreatedWebhookSubscription = z.infer<typeof CreatedWebhookSubscription>;

export const RotatedSecret = z.looseObject({
  id: z.string(),
  secret: z.string(),
  /** The previous secret keeps signing deliveries until then. */
  previous_secret_expires_at: DateTime,
});
export type RotatedSecret = z.infer<typeof RotatedSecret>;

const Events = z.array(EventType).min(1, { message: 'name at least one event type' });
const TargetUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

export const CreateWebhookRequest = z.strictObject({
  target_url: TargetUrl,
  events: Events,
  filters: WebhookFiltersInput.optional(),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = z
  .strictObject({
    events: Events.optional(),
    target_url: TargetUrl.optional(),
    status: z.enum(WEBHOOK_STATUSES).optional(),
    filters: WebhookFiltersInput.nullable().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'send at least one of events, target_url, status, filters',
  });
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

export const ATTEMPT_OUTCOMES = ['succeeded', 'failed'] as const;

/** One POST of a delivery: what the receiver answered, how long it took, what went wrong. */
export const DeliveryAttempt = z.looseObject({
  attempted_at: DateTime,
  outcome: openEnum(ATTEMPT_OUTCOMES),
  status_code: z.number().int().nullable(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  /** The receiver's answer, as Stripe shows it: its content-type and the first 4 KiB of its body (null when no answer came). */
  response_content_type: z.string().nullable().optional(),
  response_body: z.string().nullable().optional(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/**
 * pending: waiting for its next attempt; delivered: a 2xx came back; failed: retries exhausted or the
 * subscription went away; suppressed: recorded while the subscription was disabled (replayable).
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'suppressed'] as const;

export const WebhookDelivery = z.looseObject({
  id: z.string(),
  subscription_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: openEnum(DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  next_attempt_at: DateTime.nullable(),
  created_at: DateTime,
  attempts: z.array(DeliveryAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListDeliveriesQuery = PaginationQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;
