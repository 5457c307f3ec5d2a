// The delivery log's reads, as the console shows it (domain/delivery-log.ts): a user's subscriptions and
// hooks with their deliveries counted by status, pages of deliveries newest first, a delivery with its
// owner, event and body, and the events a subscription never received.
import type { Executor } from '../db/executor.ts';
import type { SubscriptionKind } from '../domain/events/outbox.ts';

/** The user's v2 subscriptions and v1 hooks, each oldest first. */
export async function userSubscriptionRows(db: Executor, userId: string) {
  const [v2, v1] = await Promise.all([
    db
      .selectFrom('webhook_subscriptions')
      .select(['id', 'target_url', 'events', 'status', 'disabled_reason', 'failing_since', 'secrets'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('v1_hook_subscriptions')
      .select(['id', 'webhook_url', 'action', 'entity_id', 'failing_since'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return { v2, v1 };
}

/** How many deliveries of these subscriptions stand in each status, by kind and subscription. */
export function deliveryCounts(db: Executor, subscriptionIds: string[]) {
  return db
    .selectFrom('webhook_deliveries')
    .select((eb) => ['kind', 'subscription_id', 'status', eb.fn.countAll<number>().as('count')])
    .where('subscription_id', 'in', subscriptionIds)
    .groupBy(['kind', 'subscription_id', 'status'])
    .execute();
}

/** Which deliveries a page of the log shows: those of these subscriptions, of a status and event type if given. */
export interface LogFilter {
  subscriptions: readonly { kind: SubscriptionKind; ids: string[] }[];
  status?: string | undefined;
  event_type?: string | undefined;
}

function filtered(db: Executor, filter: LogFilter) {
  let select = db
    .selectFrom('webhook_deliveries as d')
    .where((eb) =>
      eb.or(
        filter.subscriptions.map(({ kind, ids }) =>
          eb.and([eb('d.kind', '=', kind), eb('d.subscription_id', 'in', ids)]),
        ),
      ),
    );
  if (filter.status !== undefined) select = select.where('d.status', '=', filter.status);
  if (filter.event_type !== undefined) select = select.where('d.event_type', '=', filter.event_type);
  return select;
}

const ROW_COLUMNS = [
  'd.seq',
  'd.id',
  'd.kind',
  'd.subscription_id',
  'd.event_id',
  'd.event_type',
  'd.status',
  'd.attempt_count',
  'd.next_attempt_at',
  'd.created_at',
] as const;

/**
 * Up to `take` deliveries of the filter: the newest, or the newest older than `before`, or (in
 * ascending order) the oldest newer than `after`.
 */
export function logRows(
  db: Executor,
  filter: LogFilter,
  window: { before: number | null; after: number | null },
  take: number,
) {
  const { before, after } = window;
  return filtered(db, filter)
    .select(ROW_COLUMNS)
    .$if(before !== null, (select) => select.where('d.seq', '<', before!))
    .$if(after !== null, (select) => select.where('d.seq', '>', after!))
    .orderBy('d.seq', after === null ? 'desc' : 'asc')
    .limit(take)
    .execute();
}

/** Whether any delivery of the filter lies beyond `edge` (a seq) in `direction`. */
export async function logHasBeyond(
  db: Executor,
  filter: LogFilter,
  edge: number,
  direction: '>' | '<',
): Promise<boolean> {
  return (
    (await filtered(db, filter).select('d.seq').where('d.seq', direction, edge).limit(1).execute()).length > 0
  );
}

/** The last attempt of each of these deliveries (none for a delivery never attempted). */
export async function lastAttempts(db: Executor, deliveryIds: string[]) {
  if (deliveryIds.length === 0)
    return new Map<string, { status_code: number | null; attempted_at: string }>();
  const rows = await db
    .selectFrom('webhook_delivery_attempts as a')
    .select(['a.delivery_id', 'a.status_code', 'a.attempted_at'])
    .where('a.delivery_id', 'in', deliveryIds)
    .where((eb) =>
      eb(
        'a.number',
        '=',
        eb
          .selectFrom('webhook_delivery_attempts as b')
          .select((inner) => inner.fn.max('b.number').as('number'))
          .whereRef('b.delivery_id', '=', 'a.delivery_id'),
      ),
    )
    .execute();
  return new Map(rows.map((row) => [row.delivery_id, row]));
}

/** A delivery: which subscription (v2) or hook (v1) it is for, and its event; undefined if none. */
export function findDelivery(db: Executor, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select(['kind', 'subscription_id', 'event_id', 'event_type'])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

/**
 * A delivery with its subscription's target URL and (v2) secrets, if its subscription is the user's;
 * undefined otherwise.
 */
export async function findUserDeliveryOwner(db: Executor, userId: string, deliveryId: string) {
  const row = await findDelivery(db, deliveryId);
  const subscription =
    row?.kind === 'v2'
      ? await db
          .selectFrom('webhook_subscriptions')
          .select(['target_url', 'secrets'])
          .where('id', '=', row.subscription_id)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : row?.kind === 'v1'
        ? await db
            .selectFrom('v1_hook_subscriptions')
            .select(['webhook_url as target_url', (eb) => eb.val<string | null>(null).as('secrets')])
            .where('id', '=', row.subscription_id)
            .where('user_id', '=', userId)
            .executeTakeFirst()
        : undefined;
  if (!row || !subscription) return undefined;
  return { ...row, kind: row.kind as SubscriptionKind, ...subscription };
}

/** The event as a v2 body is built from it; undefined if none. */
export function findEvent(db: Executor, eventId: string) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('id', '=', eventId)
    .executeTakeFirst();
}

/** The v1 item the event's hooks are sent; null if none was stored. */
export async function findHookPayload(db: Executor, eventId: string): Promise<string | null> {
  const payload = await db
    .selectFrom('v1_hook_payloads')
    .select('body')
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return payload?.body ?? null;
}

/** Whether the user has a subscription (v2) or hook (v1) of this id. */
export async function ownsSubscription(
  db: Executor,
  userId: string,
  kind: SubscriptionKind,
  subscriptionId: string,
): Promise<boolean> {
  const table = kind === 'v2' ? 'webhook_subscriptions' : 'v1_hook_subscriptions';
  const owned = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', subscriptionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return owned !== undefined;
}

/**
 * The events whose deliveries to this subscription all failed (none delivered, none still pending),
 * in the order of their first delivery.
 */
export function eventsNeverReceived(db: Executor, kind: SubscriptionKind, subscriptionId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(['d.event_id', 'd.event_type'])
    .where('d.kind', '=', kind)
    .where('d.subscription_id', '=', subscriptionId)
    .where('d.status', '=', 'failed')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as o')
            .select('o.id')
            .whereRef('o.kind', '=', 'd.kind')
            .whereRef('o.subscription_id', '=', 'd.subscription_id')
            .whereRef('o.event_id', '=', 'd.event_id')
            .where('o.status', 'in', ['pending', 'delivered']),
        ),
      ),
    )
    .groupBy(['d.event_id', 'd.event_type'])
    .orderBy((eb) => eb.fn.min('d.seq'))
    .execute();
}
