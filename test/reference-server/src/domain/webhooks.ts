// v2 webhook subscriptions: create, read, update, delete, rotate the signing secret, send a test event,
// read the delivery log and replay a delivery. A subscription belongs to the user whose key created it;
// any other user gets 404 for it. Within the user's, it belongs to the key that made or last re-enabled
// it (none when made in the console), and revoking that key disables it (docs/webhooks.md).
import type {
  CreatedWebhookSubscription,
  CreateWebhookRequest,
  DeliveryAttempt,
  ListDeliveriesQuery,
  RotatedSecret,
  UpdateWebhookRequest,
  WebhookDelivery,
  WebhookFilters,
  WebhookSubscription,
} from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { WebhookSubscriptionsTable } from '../db/schema.ts';
import { holdKey, type Intent } from '../storage/locks.ts';
import {
  type DeliveryRow,
  deleteSubscriptionRow,
  disableKeySubscriptions,
  findUserDelivery,
  findUserSubscription,
  getDeliveryRow,
  insertSubscription,
  pageUserSubscriptions,
  selectAttempts,
  selectSubscriptionDeliveries,
  updateSubscriptionRow,
} from '../storage/webhooks.ts';
import { invalidField, keyRevoked, notFound } from './errors.ts';
import { noteChange } from './events/feed.ts';
import { subscriptionsChanged } from './events/listeners.ts';
import { enqueueDelivery } from './events/outbox.ts';
import { recordTestEvent } from './events/record.ts';
import { newId } from './ids.ts';
import { decodeCursor, encodeCursor, type Page, type PageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';
import { newSecret } from './secrets.ts';
import { checkTargetUrl, type WebhookTargetOptions } from './webhook-targets.ts';

/** How long a rotated-out secret keeps signing deliveries. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

export interface SigningSecret {
  secret: string;
  /** Null for the current secret; set when it was rotated out. */
  expires_at: string | null;
}

export function parseSecrets(text: string): SigningSecret[] {
  return JSON.parse(text) as SigningSecret[];
}

/** The secrets that sign a delivery at `at`: the current one first, then rotated-out ones still valid. */
export function activeSecrets(secrets: readonly SigningSecret[], at: Date): string[] {
  const now = at.toISOString();
  return secrets
    .filter((entry) => entry.expires_at === null || entry.expires_at > now)
    .map((entry) => entry.secret);
}

type SubscriptionRow = WebhookSubscriptionsTable;

/** Who subscribes: the user, and the key the request came with (null: the console, which has none). */
export type Subscriber = Pick<Principal, 'userId' | 'keyId'>;

function present(row: SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    target_url: row.target_url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    filters: row.filters === null ? null : (JSON.parse(row.filters) as WebhookFilters),
    created_at: row.created_at,
    disabled_reason: row.disabled_reason,
    key_id: row.key_id,
  };
}

/**
 * The user's subscription (404 otherwise). `change`: a change that reads it to decide reads it as it
 * stands, and no other change of it runs meanwhile (storage/locks.ts).
 */
async function findOwned(
  db: Executor,
  userId: string,
  id: string,
  intent: Intent = 'read',
): Promise<SubscriptionRow> {
  const row = await findUserSubscription(db, userId, id, intent);
  if (!row) throw notFound('webhook subscription', id);
  return row;
}

/** A new subscription, the subscriber's key's (held until commit, so a revocation cannot miss it). */
export async function createSubscription(
  db: Executor,
  subscriber: Subscriber,
  input: CreateWebhookRequest,
  options: WebhookTargetOptions,
  now: Date,
): Promise<CreatedWebhookSubscription> {
  checkTargetUrl(input.target_url, options, 'target_url');
  if (subscriber.keyId !== null && !(await holdKey(db, subscriber.keyId))) throw keyRevoked();
  const secret = newSecret('whsec_');
  const row: SubscriptionRow = {
    id: newId('wh'),
    user_id: subscriber.userId,
    key_id: subscriber.keyId,
    target_url: input.target_url,
    events: JSON.stringify([...new Set(input.events)]),
    filters: JSON.stringify(input.filters ?? { scope: 'tasked' }),
    status: 'active',
    disabled_reason: null,
    secrets: JSON.stringify([{ secret, expires_at: null }] satisfies SigningSecret[]),
    failing_since: null,
    created_at: now.toISOString(),
  };
  await insertSubscription(db, row);
  subscriptionsChanged(db);
  return { ...present(row), secret };
}

/** The user's own subscriptions, oldest first. */
export async function listSubscriptions(
  db: Executor,
  userId: string,
  page: PageRequest,
): Promise<Page<WebhookSubscription>> {
  const result = await pageUserSubscriptions(db, userId, page);
  return { items: result.items.map(present), pagination: result.pagination };
}

export async function getSubscription(
  db: Executor,
  userId: string,
  id: string,
): Promise<WebhookSubscription> {
  return present(await findOwned(db, userId, id));
}

/**
 * Applies an UpdateWebhookRequest. Re-enabling (status active) clears the failure streak and the
 * disabled reason, and a disabled subscription re-enabled becomes the re-enabling key's (none, from the
 * console); disabling by hand records the reason `manual`.
 */
export async function updateSubscription(
  db: Executor,
  subscriber: Subscriber,
  id: string,
  patch: UpdateWebhookRequest,
  options: WebhookTargetOptions,
): Promise<WebhookSubscription> {
  // The key that may take it over first, then the subscription (storage/locks.ts).
  if (patch.status === 'active' && subscriber.keyId !== null && !(await holdKey(db, subscriber.keyId))) {
    throw keyRevoked();
  }
  const row = await findOwned(db, subscriber.userId, id, 'change');
  const changes: Partial<SubscriptionRow> = {};
  if (patch.target_url !== undefined) {
    checkTargetUrl(patch.target_url, options, 'target_url');
    changes.target_url = patch.target_url;
  }
  if (patch.events !== undefined) changes.events = JSON.stringify([...new Set(patch.events)]);
  if (patch.filters !== undefined)
    changes.filters = patch.filters === null ? null : JSON.stringify(patch.filters);
  if (patch.status === 'active') {
    Object.assign(changes, { status: 'active', disabled_reason: null, failing_since: null });
    if (row.status !== 'active') changes.key_id = subscriber.keyId;
  } else if (patch.status === 'disabled') {
    Object.assign(changes, { status: 'disabled', disabled_reason: 'manual' });
  }
  await updateSubscriptionRow(db, row.id, changes);
  noteChange(db, { topic: 'subscription', subscription_id: row.id });
  return present({ ...row, ...changes });
}

/**
 * Deletes the subscription; deliveries still owed to it are marked failed (kept in the log).
 */
export async function deleteSubscription(
  db: Executor,
  userId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const row = await findOwned(db, userId, id);
  // Deleted meanwhile by a concurrent request: answered as if it had come first.
  if (!(await deleteSubscriptionRow(db, row.id))) throw notFound('webhook subscription', id);
  subscriptionsChanged(db);
  return { id: row.id, deleted: true };
}

/**
 * Disables the key's active subscriptions (`key_revoked`), as revoking the key does, and answers how
 * many. What is already queued for any of the key's subscriptions (retries, test events, replays) stops
 * as `suppressed`; events from now on are recorded the same way, as for any disabled subscription.
 */
export async function disableSubscriptionsOfKey(tx: Executor, keyId: string): Promise<number> {
  const count = await disableKeySubscriptions(tx, keyId);
  // The console's deliveries page shows each subscription's state.
  if (count > 0) subscriptionsChanged(tx);
  return count;
}

/** A new current secret; the previous one keeps signing (beside it) for 24 hours. */
export async function rotateSecret(
  db: Executor,
  userId: string,
  id: string,
  now: Date,
): Promise<RotatedSecret> {
  const row = await findOwned(db, userId, id, 'change');
  const expiresAt = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS).toISOString();
  const stillValid = parseSecrets(row.secrets).filter(
    (entry) => entry.expires_at === null || entry.expires_at > now.toISOString(),
  );
  const secret = newSecret('whsec_');
  const secrets: SigningSecret[] = [
    { secret, expires_at: null },
    ...stillValid.map((entry) => ({ secret: entry.secret, expires_at: entry.expires_at ?? expiresAt })),
  ];
  await updateSubscriptionRow(db, row.id, { secrets: JSON.stringify(secrets) });
  // The deliveries page shows the signature each attempt carried, made with the secrets.
  noteChange(db, { topic: 'subscription', subscription_id: row.id });
  return { id: row.id, secret, previous_secret_expires_at: expiresAt };
}

/** Queues a `webhook.test` event for this subscription alone and answers its delivery. */
export async function sendTestEvent(
  tx: Executor,
  userId: string,
  id: string,
  now: Date,
): Promise<WebhookDelivery> {
  const row = await findOwned(tx, userId, id);
  const deliveryId = await recordTestEvent(tx, { id: row.id, userId }, now);
  return getDelivery(tx, deliveryId);
}

/** A new delivery of the same event (the same bytes: the body is built from the event) to the same subscription, due now. */
export async function replayDelivery(
  tx: Executor,
  userId: string,
  deliveryId: string,
  now: Date,
): Promise<WebhookDelivery> {
  const original = await findUserDelivery(tx, userId, deliveryId);
  if (!original) throw notFound('webhook delivery', deliveryId);
  const id = await enqueueDelivery(
    tx,
    {
      kind: 'v2',
      subscriptionId: original.subscription_id,
      eventId: original.event_id,
      eventType: original.event_type,
      suppressed: false,
      manual: true,
    },
    now,
  );
  return getDelivery(tx, id);
}

async function withAttempts(db: Executor, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await selectAttempts(
    db,
    rows.map((row) => row.id),
  );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery_id) ?? [];
    list.push({
      attempted_at: attempt.attempted_at,
      outcome: attempt.outcome,
      status_code: attempt.status_code,
      duration_ms: attempt.duration_ms,
      error: attempt.error,
      response_content_type: attempt.response_content_type,
      response_body: attempt.response_body,
    });
    byDelivery.set(attempt.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at,
    created_at: row.created_at,
    attempts: byDelivery.get(row.id) ?? [],
  }));
}

/** One delivery of the log with its attempts (the caller has checked whose it is). */
export async function getDelivery(db: Executor, id: string): Promise<WebhookDelivery> {
  const [delivery] = await withAttempts(db, [await getDeliveryRow(db, id)]);
  return delivery!;
}

/** The subscription's delivery log, newest first, optionally of one status. */
export async function listDeliveries(
  db: Executor,
  userId: string,
  subscriptionId: string,
  query: ListDeliveriesQuery,
): Promise<Page<WebhookDelivery>> {
  const subscription = await findOwned(db, userId, subscriptionId);
  const limit = query.limit;
  // Newest first is descending seq, which the ascending keyset helper does not cover.
  const before = query.cursor ? decodeCursor(query.cursor, 1)[0] : null;
  if (before !== null && typeof before !== 'number') {
    throw invalidField('cursor', 'not a cursor this server issued');
  }
  const rows = await selectSubscriptionDeliveries(
    db,
    subscription.id,
    { status: query.status, before },
    limit + 1,
  );
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return {
    items: await withAttempts(db, items),
    pagination: { next_cursor: hasMore && last ? encodeCursor([last.seq]) : null, has_more: hasMore, limit },
  };
}
