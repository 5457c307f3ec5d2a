// The delivery log as the console shows it: every v2 subscription and v1 hook of a user, each with its
// newest deliveries, the body each carries and, for v2, the signature header of its last attempt; and
// replay for both kinds. Deliveries themselves are made only by the events module and the worker.
import type { ConsoleDelivery, ConsoleSubscription } from '@threadwork/shared/schemas';
import { signPayload } from '@threadwork/shared/webhooks';
import type { Executor } from '../db/database.ts';
import { notFound } from './errors.ts';
import { enqueueDelivery } from './events/outbox.ts';
import { eventBody } from './events/webhook-body.ts';
import { activeSecrets, newestDeliveries, parseSecrets, replayDelivery } from './webhooks.ts';

/** Deliveries shown per subscription: the newest ones (the v2 API pages through the rest). */
export const DELIVERIES_SHOWN = 50;

export async function deliveryLog(db: Executor, userId: string): Promise<ConsoleSubscription[]> {
  const [v2, v1] = await Promise.all([
    db
      .selectFrom('webhook_subscriptions')
      .select(['id', 'target_url', 'events', 'status', 'disabled_reason', 'secrets'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('v1_hook_subscriptions')
      .select(['id', 'webhook_url', 'action', 'entity_id'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const subscriptions: ConsoleSubscription[] = [];
  for (const row of v2) {
    const deliveries = await newestDeliveries(db, 'v2', row.id, DELIVERIES_SHOWN);
    const bodies = await v2Bodies(
      db,
      deliveries.map((delivery) => delivery.event_id),
    );
    const secrets = parseSecrets(row.secrets);
    subscriptions.push({
      kind: 'v2',
      id: row.id,
      target_url: row.target_url,
      events: JSON.parse(row.events) as string[],
      status: row.status,
      disabled_reason: row.disabled_reason,
      entity_id: null,
      deliveries: deliveries.map((delivery): ConsoleDelivery => {
        const body = bodies.get(delivery.event_id) ?? null;
        const last = delivery.attempts.at(-1);
        let signature: string | null = null;
        if (body !== null && last) {
          // Signed as the worker signs an attempt: the secrets active then, the attempt's second.
          const at = new Date(last.attempted_at);
          signature = signPayload(body, activeSecrets(secrets, at), {
            timestamp: Math.floor(at.getTime() / 1000),
          });
        }
        return { ...delivery, body, signature };
      }),
    });
  }
  for (const row of v1) {
    const deliveries = await newestDeliveries(db, 'v1', row.id, DELIVERIES_SHOWN);
    const payloads = await v1Bodies(
      db,
      deliveries.map((delivery) => delivery.event_id),
    );
    subscriptions.push({
      kind: 'v1',
      id: row.id,
      target_url: row.webhook_url,
      events: [row.action],
      status: 'active',
      disabled_reason: null,
      entity_id: row.entity_id,
      deliveries: deliveries.map((delivery) => ({
        ...delivery,
        body: payloads.get(delivery.event_id) ?? null,
        signature: null,
      })),
    });
  }
  return subscriptions;
}

async function v2Bodies(db: Executor, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'created_at', 'data'])
    .where('id', 'in', [...new Set(eventIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, eventBody(row)]));
}

async function v1Bodies(db: Executor, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('v1_hook_payloads')
    .select(['event_id', 'body'])
    .where('event_id', 'in', [...new Set(eventIds)])
    .execute();
  return new Map(rows.map((row) => [row.event_id, row.body]));
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
  const row = await tx
    .selectFrom('webhook_deliveries')
    .select(['kind', 'subscription_id', 'event_id', 'event_type'])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (row?.kind === 'v2') return (await replayDelivery(tx, userId, deliveryId, now)).id;
  const hook =
    row?.kind === 'v1' &&
    (await tx
      .selectFrom('v1_hook_subscriptions')
      .select('id')
      .where('id', '=', row.subscription_id)
      .where('user_id', '=', userId)
      .executeTakeFirst());
  if (!row || !hook) throw notFound('webhook delivery', deliveryId);
  return enqueueDelivery(
    tx,
    {
      kind: 'v1',
      subscriptionId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.event_type,
      suppressed: false,
      manual: true,
    },
    now,
  );
}
