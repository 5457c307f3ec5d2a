// The outbox as the delivery worker works it (delivery/worker.ts, delivery/outcomes.ts): the deliveries
// due now with what their subscriptions say, the claims on them (marks on SQLite, row locks on
// PostgreSQL: storage/locks.ts `deliveryClaims`), their attempts, and how each settles. What an answer
// means is delivery/outcomes.ts's rule; the outbox's rows are queued by storage/events.ts.
import type { Executor } from '../db/executor.ts';
import type { WebhookDeliveryAttemptsTable } from '../db/schema.ts';
import { claimable } from './locks.ts';

/** A due delivery with what its subscription (v2 or v1, whichever it names) says about sending it. */
export interface ClaimedDelivery {
  id: string;
  kind: string;
  subscription_id: string;
  event_id: string;
  manual: number;
  attempt_count: number;
  created_at: string;
  /** Whether other deliveries of its event to its subscription exist (replays, or the original). */
  has_siblings: number | boolean;
  event_type: string;
  event_created_at: string;
  /** The event's data (JSON text): a v2 delivery's body is built from it. */
  event_data: string;
  /** A v1 delivery's body, the Item. */
  item_body: string | null;
  target_url: string | null;
  status: string | null;
  secrets: string | null;
  failing_since: string | null;
  hook_url: string | null;
  hook_failing_since: string | null;
}

/** The deliveries due at `now` (ISO) and not claimed, oldest first, with their subscriptions' state. */
function dueQuery(db: Executor, now: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_subscriptions as s', (join) =>
      join.onRef('s.id', '=', 'd.subscription_id').on('d.kind', '=', 'v2'),
    )
    .leftJoin('v1_hook_subscriptions as h', (join) =>
      join.onRef('h.id', '=', 'd.subscription_id').on('d.kind', '=', 'v1'),
    )
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .leftJoin('v1_hook_payloads as p', (join) =>
      join.onRef('p.event_id', '=', 'd.event_id').on('d.kind', '=', 'v1'),
    )
    .select([
      'd.id',
      'd.kind',
      'd.subscription_id',
      'd.event_id',
      'd.manual',
      'd.attempt_count',
      'd.created_at',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('webhook_deliveries as o')
              .select('o.seq')
              .whereRef('o.event_id', '=', 'd.event_id')
              .whereRef('o.subscription_id', '=', 'd.subscription_id')
              .whereRef('o.kind', '=', 'd.kind')
              .whereRef('o.id', '<>', 'd.id'),
          )
          .as('has_siblings'),
      'e.type as event_type',
      'e.created_at as event_created_at',
      'e.data as event_data',
      'p.body as item_body',
      's.target_url',
      's.status',
      's.secrets',
      's.failing_since',
      'h.webhook_url as hook_url',
      'h.failing_since as hook_failing_since',
    ])
    .where('d.status', '=', 'pending')
    .where('d.in_flight', '=', 0)
    .where('d.next_attempt_at', '<=', now)
    .orderBy('d.next_attempt_at')
    .orderBy('d.seq')
    .limit(limit);
}

/** Up to `limit` deliveries due at `now` (ISO) and not marked in flight, oldest first (claims by marks). */
export function dueDeliveries(db: Executor, now: string, limit: number): Promise<ClaimedDelivery[]> {
  return dueQuery(db, now, limit).execute();
}

/**
 * The oldest delivery due at `now` (ISO), its row locked until `tx` ends, skipping those another
 * process holds (claims by row locks); undefined if none is due.
 */
export function claimDueDelivery(tx: Executor, now: string): Promise<ClaimedDelivery | undefined> {
  return dueQuery(tx, now, 1).forUpdate('d').skipLocked().executeTakeFirst();
}

/** Marks these deliveries in flight (claims by marks). */
export async function markInFlight(db: Executor, ids: string[]): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ in_flight: 1 }).where('id', 'in', ids).execute();
}

/** Clears every in-flight mark: what a previous process left marked was cut off by a stop or a crash. */
export async function clearInFlightMarks(db: Executor): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ in_flight: 0 }).where('in_flight', '=', 1).execute();
}

/** When the earliest pending delivery not in flight falls due (ISO); null if none. */
export async function nextDueTime(db: Executor): Promise<string | null> {
  const next = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('next'))
    .where('status', '=', 'pending')
    .where('in_flight', '=', 0)
    .executeTakeFirst();
  return next?.next ?? null;
}

/** Releases the delivery's claim and puts it off until `retryAt` (ISO). */
export async function putOffDelivery(db: Executor, id: string, retryAt: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ in_flight: 0, next_attempt_at: retryAt })
    .where('id', '=', id)
    .execute();
}

/** Whether another delivery of the same event to the same subscription succeeded after this one was made. */
export async function siblingSucceededSince(db: Executor, delivery: ClaimedDelivery): Promise<boolean> {
  const success = await db
    .selectFrom('webhook_deliveries as s')
    .innerJoin('webhook_delivery_attempts as a', 'a.delivery_id', 's.id')
    .select('s.id')
    .where('s.event_id', '=', delivery.event_id)
    .where('s.subscription_id', '=', delivery.subscription_id)
    .where('s.kind', '=', delivery.kind)
    .where('s.id', '<>', delivery.id)
    .where('a.outcome', '=', 'succeeded')
    .where('a.attempted_at', '>', delivery.created_at)
    .limit(1)
    .executeTakeFirst();
  return success !== undefined;
}

/** Settles a delivery that was not sent, and will not be: `failed` or `suppressed`. */
export async function settleUnsentDelivery(
  db: Executor,
  id: string,
  status: 'failed' | 'suppressed',
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status, in_flight: 0, next_attempt_at: null })
    .where('id', '=', id)
    .execute();
}

/** Logs attempts, in one statement. */
export async function insertAttempts(
  tx: Executor,
  attempts: readonly WebhookDeliveryAttemptsTable[],
): Promise<void> {
  await tx
    .insertInto('webhook_delivery_attempts')
    .values([...attempts])
    .execute();
}

/** Settles these deliveries as delivered, counting the attempt that delivered each. */
export async function markDelivered(tx: Executor, ids: string[]): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'delivered',
      attempt_count: eb('attempt_count', '+', 1),
      in_flight: 0,
      next_attempt_at: null,
    }))
    .where('id', 'in', ids)
    .execute();
}

/** Settles a delivery after a failed attempt: retried at `nextAttemptAt` (`pending`), or `failed`. */
export async function settleFailedAttempt(
  tx: Executor,
  id: string,
  settled: { status: 'pending' | 'failed'; attemptCount: number; nextAttemptAt: string | null },
): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({
      status: settled.status,
      attempt_count: settled.attemptCount,
      in_flight: 0,
      next_attempt_at: settled.nextAttemptAt,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The other pending deliveries of each delivered event to its subscription stop, as `suppressed`. One
 * being attempted right now is left alone: marked in flight here, or locked by another process's claim
 * (skipped, never waited for: storage/locks.ts `claimable`).
 */
export async function suppressSiblings(
  tx: Executor,
  delivered: readonly Pick<ClaimedDelivery, 'event_id' | 'subscription_id' | 'kind'>[],
): Promise<void> {
  const siblings = tx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where((eb) =>
      eb.or(
        delivered.map((delivery) =>
          eb.and([
            eb('event_id', '=', delivery.event_id),
            eb('subscription_id', '=', delivery.subscription_id),
            eb('kind', '=', delivery.kind),
          ]),
        ),
      ),
    )
    .where('status', '=', 'pending')
    .where('in_flight', '=', 0);
  await tx
    .updateTable('webhook_deliveries')
    .set({ status: 'suppressed', next_attempt_at: null })
    .where('id', 'in', claimable(tx, siblings))
    .execute();
}

/** The subscription (v2) or hook (v1) a delivery is for. */
type DeliveryTarget = Pick<ClaimedDelivery, 'kind' | 'subscription_id'>;

function subscriptionTable(target: DeliveryTarget) {
  return target.kind === 'v1' ? ('v1_hook_subscriptions' as const) : ('webhook_subscriptions' as const);
}

/** Ends the failure streak of the delivery's subscription or hook (a delivery succeeded). */
export async function endFailingStreak(tx: Executor, target: DeliveryTarget): Promise<void> {
  await tx
    .updateTable(subscriptionTable(target))
    .set({ failing_since: null })
    .where('id', '=', target.subscription_id)
    .execute();
}

/**
 * Starts the failure streak of the delivery's subscription or hook at `at` (ISO) unless one runs;
 * answers when the streak began (undefined if the subscription is gone).
 */
export async function recordFailingStreak(
  tx: Executor,
  target: DeliveryTarget,
  at: string,
): Promise<string | null | undefined> {
  const streak = await tx
    .updateTable(subscriptionTable(target))
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(at)) }))
    .where('id', '=', target.subscription_id)
    .returning('failing_since')
    .executeTakeFirst();
  return streak?.failing_since;
}
