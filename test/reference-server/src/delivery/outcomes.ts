// What an attempt's answer means for its delivery and its subscription: the one place that decides
// delivered, retried later, failed for good, or subscription disabled (v2) / deleted (v1); and, once a
// delivery of an event succeeds, that the other pending deliveries of that event to that subscription
// stop (suppressed).
import type { Executor } from '../db/executor.ts';
import { subscriptionsChanged } from '../domain/events/listeners.ts';
import {
  type ClaimedDelivery,
  endFailingStreak,
  insertAttempts,
  markDelivered,
  recordFailingStreak,
  settleFailedAttempt,
  suppressSiblings,
} from '../storage/deliveries.ts';
import { deleteAbandonedHook } from '../storage/v1-hooks.ts';
import { updateSubscriptionRow } from '../storage/webhooks.ts';
import type { AttemptResult } from './post.ts';
import { FAILING_STREAK_LIMIT_MS, retryDelayMs } from './schedule.ts';

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
  await insertAttempts(
    tx,
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
  );

  const delivered = outcomes.filter((outcome) => outcome.result.ok).map((outcome) => outcome.delivery);
  if (delivered.length > 0) {
    await markDelivered(
      tx,
      delivered.map((delivery) => delivery.id),
    );
    // The receiver has the event: the other pending deliveries of it to the subscription stop. One being
    // attempted right now is left alone; its attempt checks again before it sends (worker.ts). Only
    // deliveries that had siblings when claimed are looked at: one made later (a replay asked for while
    // the original's first attempt was under way) is sent (docs/webhooks.md).
    const withSiblings = delivered.filter((delivery) => delivery.has_siblings);
    if (withSiblings.length > 0) await suppressSiblings(tx, withSiblings);
    const streaks = new Map<string, ClaimedDelivery>();
    for (const delivery of delivered) {
      const failingSince = delivery.kind === 'v1' ? delivery.hook_failing_since : delivery.failing_since;
      if (failingSince !== null) streaks.set(`${delivery.kind}:${delivery.subscription_id}`, delivery);
    }
    for (const delivery of streaks.values()) await endFailingStreak(tx, delivery);
  }

  const retries: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.result.ok) continue;
    const retryAt = await settleFailure(tx, outcome, policy);
    if (retryAt) retries.push(retryAt);
  }
  return retries;
}

async function settleFailure(
  tx: Executor,
  outcome: AttemptOutcome,
  policy: RetryPolicy,
): Promise<string | null> {
  const { delivery, subscriptionActive, attemptedAt, result } = outcome;
  const attemptCount = delivery.attempt_count + 1;
  const settle = async (status: 'pending' | 'failed', nextAttemptAt: string | null = null) => {
    await settleFailedAttempt(tx, delivery.id, { status, attemptCount, nextAttemptAt });
    return nextAttemptAt;
  };

  if (result.statusCode === 410) {
    await giveUp(tx, delivery, 'gone', subscriptionActive);
    return settle('failed');
  }

  // A disabled subscription (reached by a manual delivery) keeps its reason and its streak.
  if (subscriptionActive) {
    const at = attemptedAt.toISOString();
    const streakStart = await recordFailingStreak(tx, delivery, at);
    const since = streakStart ? Date.parse(streakStart) : attemptedAt.getTime();
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
    await deleteAbandonedHook(tx, delivery.subscription_id);
    subscriptionsChanged(tx);
    return;
  }
  if (!active) return;
  await updateSubscriptionRow(tx, delivery.subscription_id, { status: 'disabled', disabled_reason: reason });
}
