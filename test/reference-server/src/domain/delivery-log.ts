// The delivery log as the console shows it: every v2 subscription and v1 hook of a user with how many of
// its deliveries stand in each status; one page of their deliveries, newest first, filtered by status,
// event type and subscription; one delivery in full (attempts, the body and, for v2, the signature header
// of its last attempt, the attempts still ahead); and replay, one delivery or every event a subscription
// never received. Deliveries themselves are made only by the events module and the worker.
import type {
  ConsoleDeliveriesQuery,
  ConsoleDeliveryDetail,
  ConsoleDeliveryRow,
  ConsoleSubscription,
} from '@threadwork/shared/schemas';
import { signPayload } from '@threadwork/shared/webhooks';
import type { Executor } from '../db/executor.ts';
import { attemptsAhead, RETRY_JITTER } from '../delivery/schedule.ts';
import {
  deliveryCounts,
  eventsNeverReceived,
  findEvent,
  findHookPayload,
  findUserDeliveryOwner,
  type LogFilter,
  lastAttempts,
  logHasBeyond,
  logRows,
  ownsSubscription,
  userSubscriptionRows,
} from '../storage/delivery-log.ts';
import { invalidField, notFound } from './errors.ts';
import { enqueueDeliveries, type SubscriptionKind } from './events/outbox.ts';
import { eventBody } from './events/webhook-body.ts';
import { decodeCursor, encodeCursor } from './pagination.ts';
import {
  getDelivery,
  PREVIOUS_SECRET_TTL_MS,
  parseSecrets,
  replayDelivery,
  type SigningSecret,
} from './webhooks.ts';

/** Deliveries per page of the console's log. */
export const DELIVERIES_PER_PAGE = 50;

const STATUSES = ['pending', 'delivered', 'failed', 'suppressed'] as const;

/** The user's v2 subscriptions and v1 hooks, oldest first, each with its deliveries counted by status. */
export async function subscriptionsOf(
  db: Executor,
  userId: string,
  now: Date,
): Promise<ConsoleSubscription[]> {
  const { v2, v1 } = await userSubscriptionRows(db, userId);
  const ids = [...v2, ...v1].map((row) => row.id);
  const counted = ids.length === 0 ? [] : await deliveryCounts(db, ids);
  const countsOf = (kind: SubscriptionKind, id: string) => {
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as ConsoleSubscription['counts'];
    for (const row of counted) {
      if (row.kind === kind && row.subscription_id === id && row.status in counts) {
        counts[row.status as keyof typeof counts] = Number(row.count);
      }
    }
    return counts;
  };
  return [
    ...v2.map(
      (row): ConsoleSubscription => ({
        kind: 'v2',
        id: row.id,
        target_url: row.target_url,
        events: JSON.parse(row.events) as string[],
        status: row.status,
        disabled_reason: row.disabled_reason,
        entity_id: null,
        failing_since: row.failing_since,
        previous_secret_until:
          parseSecrets(row.secrets)
            .map((entry) => entry.expires_at)
            .filter((expires): expires is string => expires !== null && expires > now.toISOString())
            .sort()
            .at(-1) ?? null,
        counts: countsOf('v2', row.id),
      }),
    ),
    ...v1.map(
      (row): ConsoleSubscription => ({
        kind: 'v1',
        id: row.id,
        target_url: row.webhook_url,
        events: [row.action],
        status: 'active',
        disabled_reason: null,
        entity_id: row.entity_id,
        failing_since: row.failing_since,
        previous_secret_until: null,
        counts: countsOf('v1', row.id),
      }),
    ),
  ];
}

function seqOf(cursor: string | undefined, name: 'before' | 'after'): number | null {
  if (cursor === undefined) return null;
  const [seq] = decodeCursor(cursor, 1);
  if (typeof seq !== 'number') throw invalidField(name, 'not a cursor this server issued');
  return seq;
}

/**
 * One page of the deliveries of `subscriptions` (the user's own), newest first: the newest page, or the
 * page older than `before`, or newer than `after`; filtered by status, event type and subscription.
 */
export async function deliveryPage(
  db: Executor,
  subscriptions: readonly ConsoleSubscription[],
  query: ConsoleDeliveriesQuery,
  limit = DELIVERIES_PER_PAGE,
): Promise<{ deliveries: ConsoleDeliveryRow[]; older: string | null; newer: string | null }> {
  const shown = subscriptions.filter(
    (subscription) => query.subscription_id === undefined || subscription.id === query.subscription_id,
  );
  if (shown.length === 0) return { deliveries: [], older: null, newer: null };
  const before = seqOf(query.before, 'before');
  const after = before === null ? seqOf(query.after, 'after') : null;
  const filter: LogFilter = {
    subscriptions: (['v2', 'v1'] as const)
      .map((kind) => ({
        kind,
        ids: shown.filter((entry) => entry.kind === kind).map((entry) => entry.id),
      }))
      .filter(({ ids }) => ids.length > 0),
    status: query.status,
    event_type: query.event_type,
  };
  let rows = await logRows(db, filter, { before, after }, limit + 1);
  const more = rows.length > limit;
  rows = rows.slice(0, limit);
  if (after !== null) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  // Whether a page lies beyond the other end: the one this page was reached from (or a newer one).
  const beyond = (edge: number, direction: '>' | '<') => logHasBeyond(db, filter, edge, direction);
  const older = last && (after === null ? more : await beyond(Number(last.seq), '<'));
  const newer = first && (after !== null ? more : before !== null && (await beyond(Number(first.seq), '>')));
  const attempts = await lastAttempts(
    db,
    rows.map((row) => row.id),
  );
  return {
    deliveries: rows.map((row) => {
      const attempt = attempts.get(row.id);
      return {
        id: row.id,
        kind: row.kind as SubscriptionKind,
        subscription_id: row.subscription_id,
        event_id: row.event_id,
        event_type: row.event_type,
        status: row.status,
        attempt_count: row.attempt_count,
        next_attempt_at: row.next_attempt_at,
        created_at: row.created_at,
        last_status_code: attempt?.status_code ?? null,
        last_attempted_at: attempt?.attempted_at ?? null,
      };
    }),
    older: older && last ? encodeCursor([Number(last.seq)]) : null,
    newer: newer && first ? encodeCursor([Number(first.seq)]) : null,
  };
}

/** Which of the user's subscriptions a delivery belongs to; 404 for anyone else's. */
async function ownerOf(db: Executor, userId: string, deliveryId: string) {
  const owner = await findUserDeliveryOwner(db, userId, deliveryId);
  if (!owner) throw notFound('webhook delivery', deliveryId);
  return owner;
}

/**
 * The secrets that signed at `at` (a past attempt's time), of those still kept. Each secret was made
 * when the one after it in the list (older) was rotated out, which is 24 hours before that one expires:
 * a secret made after the attempt did not sign it.
 */
function secretsAt(secrets: readonly SigningSecret[], at: Date): string[] {
  const time = at.getTime();
  return secrets
    .filter((entry, index) => {
      const older = secrets[index + 1]?.expires_at;
      const made = older ? Date.parse(older) - PREVIOUS_SECRET_TTL_MS : Number.NEGATIVE_INFINITY;
      return made <= time && (entry.expires_at === null || Date.parse(entry.expires_at) > time);
    })
    .map((entry) => entry.secret);
}

/**
 * One delivery in full: its attempts, the body it carries and (v2) the signature header of its last
 * attempt, and the attempts still ahead of it if each fails (`timeScale`: `--webhook-time-scale`).
 */
export async function deliveryDetail(
  db: Executor,
  userId: string,
  deliveryId: string,
  timeScale: number,
): Promise<ConsoleDeliveryDetail> {
  const owner = await ownerOf(db, userId, deliveryId);
  const delivery = await getDelivery(db, deliveryId);
  let body: string | null;
  let signature: string | null = null;
  if (owner.kind === 'v2') {
    const event = await findEvent(db, owner.event_id);
    body = event ? eventBody(event) : null;
    const last = delivery.attempts.at(-1);
    if (body !== null && last && owner.secrets !== null) {
      // Signed as the worker signs an attempt: the secrets that signed then, the attempt's second.
      const at = new Date(last.attempted_at);
      signature = signPayload(body, secretsAt(parseSecrets(owner.secrets), at), {
        timestamp: Math.floor(at.getTime() / 1000),
      });
    }
  } else {
    body = await findHookPayload(db, owner.event_id);
  }
  const schedule =
    delivery.status === 'pending' && delivery.next_attempt_at !== null
      ? attemptsAhead(delivery.attempt_count, delivery.next_attempt_at, timeScale)
      : [];
  return {
    ...delivery,
    kind: owner.kind,
    target_url: owner.target_url,
    body,
    signature,
    schedule,
    jitter: RETRY_JITTER,
  };
}

/**
 * Replays a delivery of either kind: a new delivery of the same event to the same subscription, due
 * now. v2 goes through the API's own replay; a v1 hook's is the same outbox row with kind v1. Returns
 * the new delivery's id; 404 for a delivery of anyone else.
 */
export async function replayAnyDelivery(
  tx: Executor,
  userId: string,
  deliveryId: string,
  now: Date,
): Promise<string> {
  const owner = await ownerOf(tx, userId, deliveryId);
  if (owner.kind === 'v2') return (await replayDelivery(tx, userId, deliveryId, now)).id;
  const [id] = await enqueueDeliveries(
    tx,
    [
      {
        kind: 'v1',
        subscriptionId: owner.subscription_id,
        eventId: owner.event_id,
        eventType: owner.event_type,
        suppressed: false,
        manual: true,
      },
    ],
    now,
  );
  return id!;
}

/**
 * Svix's "recover": every event whose deliveries to this subscription all failed (none delivered, none
 * still pending) is delivered again, once, as a replay. Answers how many were queued; 404 for a
 * subscription of anyone else.
 */
export async function retryFailed(
  tx: Executor,
  userId: string,
  kind: SubscriptionKind,
  subscriptionId: string,
  now: Date,
): Promise<{ queued: number }> {
  if (!(await ownsSubscription(tx, userId, kind, subscriptionId))) {
    throw notFound(kind === 'v2' ? 'webhook subscription' : 'subscription', subscriptionId);
  }
  const events = await eventsNeverReceived(tx, kind, subscriptionId);
  const ids = await enqueueDeliveries(
    tx,
    events.map((event) => ({
      kind,
      subscriptionId,
      eventId: event.event_id,
      eventType: event.event_type,
      suppressed: false,
      manual: true,
    })),
    now,
  );
  return { queued: ids.length };
}
