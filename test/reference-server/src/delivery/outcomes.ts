// What an attempt's answer means for its delivery and its subscription: the one place that decides
// delivered, retried later, failed for good, or subscription disabled (v2) / deleted (v1); and, once a
// delivery of an event succeeds, that the other pending deliveries of that event to that subscription
// stop (suppressed).
import type { Executor } from '../db/executor.ts';
import { subscriptionsChanged } from '../domain/events/listeners.ts';
import { claimable } from '../storage/locks.ts';
import type { AttemptResult } from './post.ts';
import { FAILING_STREAK_LIMIT_MS, retryDelayMs } from './schedule.ts';

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

export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  /** Whether the subscription was active when the attempt was made (v1 hooks always are). */
  subscriptionActive: boolean;
  attemptedAt: Date;
  result: AttemptResult;
}

export interface RetryPolicy {
  timeScale: number;
  random: () => number;
}

/**
 * Logs a batch of attempts and settles each delivery, in the caller's transaction: delivered on a 2xx
 * (which also ends the subscription's failure streak, and stops the other pending deliveries of its
 * event to its subscription); on a 410, or after five days of nothing but failures, the subscription is
 * disabled (v2) or deleted (v1) and the delivery fails; otherwise it is retried per the schedule until
 * the attempts run out. Returns the times of the retries it scheduled.
 */
export async function recordOutcomes(
  tx: Executor,
  outcomes: readonly AttemptOutcome[],
  policy: RetryPolicy,
): Promise<string[]> {
  if (outcomes.length === 0) return [];
  await tx
    .insertInto('webhook_delivery_attempts')
    .values(
      outcomes.map(({ delivery, attemptedAt, result }) => ({
        delivery_id: delivery.id,
        number: delivery.attempt_count + 1,
        attempted_at: attemptedAt.toISOString(),
        outcome: result.ok ? 'succeeded' : 'failed',
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        response_content_type: result.responseContentType,
        response_body: result.responseBody,
      })),
    )
    .execute();

  const delivered = outcomes.filter((outcome) => outcome.result.ok).map((outcome) => outcome.delivery);
  if (delivered.length > 0) {
    await tx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'delivered',
        attempt_count: eb('attempt_count', '+', 1),
        in_flight: 0,
        next_attempt_at: null,
      }))
      .where(
        'id',
        'in',
        delivered.map((delivery) => delivery.id),
      )
      .execute();
    const withSiblings = delivered.filter((delivery) => delivery.has_siblings);
    if (withSiblings.length > 0) await suppressSiblings(tx, withSiblings);
    const streaks = new Map<string, ClaimedDelivery>();
    for (const delivery of delivered) {
      const failingSince = delivery.kind === 'v1' ? delivery.hook_failing_since : delivery.failing_since;
      if (failingSince !== null) streaks.set(`${delivery.kind}:${delivery.subscription_id}`, delivery);
    }
    for (const delivery of streaks.values()) {
      await tx
        .updateTable(subscriptionTable(delivery))
        .set({ failing_since: null })
        .where('id', '=', delivery.subscription_id)
        .execute();
    }
  }

  const retries: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.result.ok) continue;
    const retryAt = await settleFailure(tx, outcome, policy);
    if (retryAt) retries.push(retryAt);
  }
  return retries;
}

/**
 * The other pending deliveries of each delivered event to its subscription stop, as `suppressed`: the
 * receiver has the event. One being attempted right now is left alone (in flight here, or locked by
 * another process's claim, never waited for): its attempt checks again before it sends (worker.ts).
 * Only deliveries that had siblings when claimed are looked at: one made later (a replay asked for
 * while the original's first attempt was under way) is sent (docs/webhooks.md).
 */
async function suppressSiblings(tx: Executor, delivered: readonly ClaimedDelivery[]): Promise<void> {
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

function subscriptionTable(delivery: ClaimedDelivery) {
  return delivery.kind === 'v1' ? ('v1_hook_subscriptions' as const) : ('webhook_subscriptions' as const);
}

async function settleFailure(
  tx: Executor,
  outcome: AttemptOutcome,
  policy: RetryPolicy,
): Promise<string | null> {
  const { delivery, subscriptionActive, attemptedAt, result } = outcome;
  const attemptCount = delivery.attempt_count + 1;
  const settle = async (status: 'pending' | 'failed', nextAttemptAt: string | null = null) => {
    await tx
      .updateTable('webhook_deliveries')
      .set({ status, attempt_count: attemptCount, in_flight: 0, next_attempt_at: nextAttemptAt })
      .where('id', '=', delivery.id)
      .execute();
    return nextAttemptAt;
  };

  if (result.statusCode === 410) {
    await giveUp(tx, delivery, 'gone', subscriptionActive);
    return settle('failed');
  }

  // A disabled subscription (reached by a manual delivery) keeps its reason and its streak.
  if (subscriptionActive) {
    const at = attemptedAt.toISOString();
    const streak = await tx
      .updateTable(subscriptionTable(delivery))
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(at)) }))
      .where('id', '=', delivery.subscription_id)
      .returning('failing_since')
      .executeTakeFirst();
    const since = streak?.failing_since ? Date.parse(streak.failing_since) : attemptedAt.getTime();
    if (attemptedAt.getTime() - since >= FAILING_STREAK_LIMIT_MS) {
      await giveUp(tx, delivery, 'failing', true);
      return settle('failed');
    }
  }

  const delay = retryDelayMs(attemptCount, policy.timeScale, policy.random);
  if (delay === null) return settle('failed');
  return settle('pending', new Date(attemptedAt.getTime() + delay).toISOString());
}

/** A v2 subscription is disabled with the reason; a v1 subscription is deleted (the REST-hook convention). */
async function giveUp(
  tx: Executor,
  delivery: ClaimedDelivery,
  reason: 'gone' | 'failing',
  active: boolean,
): Promise<void> {
  if (delivery.kind === 'v1') {
    await tx.deleteFrom('v1_hook_subscriptions').where('id', '=', delivery.subscription_id).execute();
    subscriptionsChanged(tx);
    return;
  }
  if (!active) return;
  await tx
    .updateTable('webhook_subscriptions')
    .set({ status: 'disabled', disabled_reason: reason })
    .where('id', '=', delivery.subscription_id)
    .execute();
}
