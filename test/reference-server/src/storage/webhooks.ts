// The v2 webhook subscriptions repository: a subscription's row, its deliveries as its log shows them,
// and the writes that stop what is owed to a subscription. The rules (who owns a subscription, what a
// change or a rotation does) are domain/webhooks.ts's. Deliveries are written before their
// subscription, in the order the delivery worker locks them (storage/locks.ts), so the two never wait
// for each other in a cycle.

import type { Executor } from '../db/executor.ts';
import type { WebhookDeliveriesTable, WebhookSubscriptionsTable } from '../db/schema.ts';
import type { Page, PageRequest } from '../domain/pagination.ts';
import { forIntent, type Intent } from './locks.ts';
import { paginate } from './pagination.ts';

/**
 * The user's subscription; undefined if the user has none of this id. `change`: a change that reads
 * it to decide reads it as it stands, and no other change of it runs meanwhile (storage/locks.ts).
 */
export function findUserSubscription(
  db: Executor,
  userId: string,
  id: string,
  intent: Intent = 'read',
): Promise<WebhookSubscriptionsTable | undefined> {
  const query = db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId);
  return forIntent(db, query, intent).executeTakeFirst();
}

export async function insertSubscription(db: Executor, row: WebhookSubscriptionsTable): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(row).execute();
}

/** A page of the user's subscriptions, oldest first. */
export function pageUserSubscriptions(
  db: Executor,
  userId: string,
  page: PageRequest,
): Promise<Page<WebhookSubscriptionsTable>> {
  return paginate(
    page,
    ['created_at', 'id'],
    (after, take) => {
      let query = db.selectFrom('webhook_subscriptions').selectAll().where('user_id', '=', userId);
      if (after) query = query.where(after);
      return query.orderBy('created_at').orderBy('id').limit(take).execute();
    },
    (row) => [row.created_at, row.id],
  );
}

export async function updateSubscriptionRow(
  db: Executor,
  id: string,
  changes: Partial<WebhookSubscriptionsTable>,
): Promise<void> {
  await db.updateTable('webhook_subscriptions').set(changes).where('id', '=', id).execute();
}

/**
 * Deletes the subscription, marking the deliveries still owed to it failed (kept in the log); false if
 * it was deleted meanwhile.
 */
export async function deleteSubscriptionRow(db: Executor, id: string): Promise<boolean> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('kind', '=', 'v2')
    .where('subscription_id', '=', id)
    .where('status', '=', 'pending')
    .execute();
  const deleted = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/**
 * Disables the key's active subscriptions with the reason `key_revoked`, what is queued for any of
 * the key's subscriptions stopping as `suppressed`; answers how many were disabled.
 */
export async function disableKeySubscriptions(tx: Executor, keyId: string): Promise<number> {
  await tx
    .updateTable('webhook_deliveries')
    .set({ status: 'suppressed', next_attempt_at: null })
    .where('kind', '=', 'v2')
    .where('status', '=', 'pending')
    .where('subscription_id', 'in', (eb) =>
      eb.selectFrom('webhook_subscriptions').select('id').where('key_id', '=', keyId),
    )
    .execute();
  const disabled = await tx
    .updateTable('webhook_subscriptions')
    .set({ status: 'disabled', disabled_reason: 'key_revoked' })
    .where('key_id', '=', keyId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(disabled.numUpdatedRows);
}

/** The user's v2 delivery, with what a replay of it needs; undefined if the user has none of this id. */
export function findUserDelivery(tx: Executor, userId: string, deliveryId: string) {
  return tx
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_subscriptions', 'webhook_subscriptions.id', 'webhook_deliveries.subscription_id')
    .select([
      'webhook_deliveries.subscription_id',
      'webhook_deliveries.event_id',
      'webhook_deliveries.event_type',
    ])
    .where('webhook_deliveries.id', '=', deliveryId)
    .where('webhook_deliveries.kind', '=', 'v2')
    .where('webhook_subscriptions.user_id', '=', userId)
    .executeTakeFirst();
}

/** A delivery as the log shows it, without its attempts. */
export type DeliveryRow = Pick<
  WebhookDeliveriesTable,
  | 'id'
  | 'subscription_id'
  | 'event_id'
  | 'event_type'
  | 'status'
  | 'attempt_count'
  | 'next_attempt_at'
  | 'created_at'
> & { seq: number };

const DELIVERY_COLUMNS = [
  'seq',
  'id',
  'subscription_id',
  'event_id',
  'event_type',
  'status',
  'attempt_count',
  'next_attempt_at',
  'created_at',
] as const;

/** The attempts of these deliveries, by delivery then in the order they were made. */
export function selectAttempts(db: Executor, deliveryIds: string[]) {
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('number')
    .execute();
}

/** One delivery (it must exist). */
export function getDeliveryRow(db: Executor, id: string): Promise<DeliveryRow> {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/**
 * Up to `take` of the subscription's v2 deliveries, newest first (descending `seq`), before `before`
 * if given, of one status if given.
 */
export function selectSubscriptionDeliveries(
  db: Executor,
  subscriptionId: string,
  filter: { status?: WebhookDeliveriesTable['status'] | undefined; before: number | null },
  take: number,
): Promise<DeliveryRow[]> {
  let select = db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('kind', '=', 'v2')
    .where('subscription_id', '=', subscriptionId);
  if (filter.status) select = select.where('status', '=', filter.status);
  if (filter.before !== null) select = select.where('seq', '<', filter.before);
  return select.orderBy('seq', 'desc').limit(take).execute();
}
