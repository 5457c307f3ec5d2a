// The delivery outbox (`webhook_deliveries`): one row per event and subscription that should hear of
// it. The delivery worker reads only this table; a commit that wrote to it wakes the worker.
import type { Executor } from '../../db/executor.ts';
import { writeDeliveries } from '../../storage/events.ts';
import { newId } from '../ids.ts';
import { noteOutboxWrite } from '../transaction.ts';
import { noteChange } from './feed.ts';

export type SubscriptionKind = 'v2' | 'v1';

export interface NewDelivery {
  kind: SubscriptionKind;
  subscriptionId: string;
  eventId: string;
  /** The v2 event type, or the v1 action. */
  eventType: string;
  /** Disabled v2 subscriptions get a `suppressed` record instead of a delivery. */
  suppressed: boolean;
  /** Test deliveries and replays: sent even while the subscription is disabled. */
  manual?: boolean;
}

/** Adds deliveries to the outbox, due at `at`, in one statement. Returns their ids, in order. */
export async function enqueueDeliveries(
  tx: Executor,
  deliveries: readonly NewDelivery[],
  at: Date,
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const createdAt = at.toISOString();
  const rows = deliveries.map((delivery) => ({
    id: newId('dlv'),
    kind: delivery.kind,
    subscription_id: delivery.subscriptionId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    manual: delivery.manual ? 1 : 0,
    status: delivery.suppressed ? 'suppressed' : 'pending',
    in_flight: 0,
    attempt_count: 0,
    next_attempt_at: delivery.suppressed ? null : createdAt,
    created_at: createdAt,
  }));
  await writeDeliveries(tx, rows);
  for (const row of rows) noteChange(tx, { topic: 'delivery', delivery_id: row.id });
  if (deliveries.some((delivery) => !delivery.suppressed)) noteOutboxWrite(tx);
  return rows.map((row) => row.id);
}

/** Adds one delivery to the outbox, due at `at`. Returns its id. */
export async function enqueueDelivery(tx: Executor, delivery: NewDelivery, at: Date): Promise<string> {
  const [id] = await enqueueDeliveries(tx, [delivery], at);
  return id!;
}
