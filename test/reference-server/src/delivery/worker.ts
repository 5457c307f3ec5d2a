// The delivery worker: reads the outbox (`webhook_deliveries`), POSTs what is due with bounded
// concurrency and logs every attempt (outcomes.ts decides what each answer means). It is woken right
// after a commit that queued something, and otherwise sleeps until the next attempt falls due. A
// delivery that was in flight when the process died is tried again on start (at-least-once).
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signPayload,
} from '@threadwork/shared/webhooks';
import type { Kysely } from 'kysely';
import { whenCommitted } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { eventBody } from '../domain/events.ts';
import type { Outbox } from '../domain/transaction.ts';
import type { WebhookTargetPolicy } from '../domain/webhook-targets.ts';
import { activeSecrets, parseSecrets } from '../domain/webhooks.ts';
import { type AttemptOutcome, type ClaimedDelivery, recordOutcomes } from './outcomes.ts';
import { createPoster } from './post.ts';
import { ATTEMPT_TIMEOUT_MS } from './schedule.ts';

export interface DeliveryWorkerOptions {
  db: Kysely<Database>;
  /** The injectable clock: due times and attempt times are read from it. */
  now: () => Date;
  /** Multiplies every retry delay (`--webhook-time-scale`). */
  timeScale: number;
  /** The target rule each attempt is checked against, and the resolver it connects through. */
  targets: WebhookTargetPolicy;
  /** Deliveries posted at the same time. Default 32. */
  concurrency?: number;
  /** Default 15 s. */
  attemptTimeoutMs?: number;
  /** Source of retry jitter, in [0, 1). */
  random?: () => number;
  /** Reports a failure of the worker itself (not of a receiver). */
  onError?: (error: unknown) => void;
}

export interface DeliveryWorker extends Outbox {
  /** Releases deliveries left in flight by a previous process and starts delivering. */
  start(): Promise<void>;
  /** Stops taking deliveries and waits for those in flight to finish and be recorded. */
  stop(): Promise<void>;
}

/** How long a worker failure (e.g. a busy database) waits before the worker looks again. */
const RECOVERY_DELAY_MS = 1000;
/** setTimeout's ceiling; a later due time is simply looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, now } = options;
  const concurrency = options.concurrency ?? 32;
  const timeoutMs = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const policy = { timeScale: options.timeScale, random: options.random ?? Math.random };
  const onError =
    options.onError ?? ((error) => process.stderr.write(`webhook delivery worker: ${String(error)}\n`));
  const poster = createPoster(concurrency, options.targets);

  const inFlight = new Map<string, Promise<void>>();
  let running = false;
  let pumping: Promise<void> | null = null;
  let pumpAgain = false;
  /** Set when the last claim was cut short by the concurrency limit: a finishing delivery then looks again. */
  let backlog = false;
  /**
   * Only the earliest known due time holds a timer; when it fires, the outbox is asked for the next one,
   * since later retries may have been recorded while it was pending.
   */
  let lookAheadNeeded = false;
  let timer: NodeJS.Timeout | null = null;
  let timerDueAt = Number.POSITIVE_INFINITY;

  /** Wakes the worker at `dueAt` (ISO, by the injected clock) unless a timer already fires sooner. */
  function wakeAt(dueAt: string): void {
    if (!running) return;
    const delayMs = Math.max(0, Date.parse(dueAt) - now().getTime());
    const fireAt = Date.now() + delayMs;
    if (timer && timerDueAt <= fireAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = fireAt;
    timer = setTimeout(
      () => {
        timer = null;
        timerDueAt = Number.POSITIVE_INFINITY;
        lookAheadNeeded = true;
        wake();
      },
      Math.min(delayMs, MAX_TIMER_MS),
    );
    // The server's socket keeps the process alive, not a pending retry.
    timer.unref();
  }

  function wake(): void {
    if (!running) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = pump().finally(() => {
      pumping = null;
    });
  }

  async function pump(): Promise<void> {
    do {
      pumpAgain = false;
      try {
        await claimDue();
      } catch (error) {
        if (!running) return;
        onError(error);
        wakeAt(new Date(now().getTime() + RECOVERY_DELAY_MS).toISOString());
        return;
      }
    } while (pumpAgain && running);
  }

  /** Takes due deliveries up to the free slots, marks them in flight and starts them. */
  async function claimDue(): Promise<void> {
    const slots = concurrency - inFlight.size;
    if (slots <= 0) {
      backlog = true;
      return;
    }
    const at = now().toISOString();
    // One query per batch: the due deliveries with their subscriptions' state.
    const due: ClaimedDelivery[] = await db
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
      .where('d.next_attempt_at', '<=', at)
      .orderBy('d.next_attempt_at')
      .orderBy('d.seq')
      .limit(slots)
      .execute();
    backlog = due.length === slots;
    if (due.length > 0) await launch(due);
    // Asked after the claim is marked, so the claimed deliveries are not mistaken for the next due one.
    if (lookAheadNeeded && !backlog) {
      lookAheadNeeded = false;
      await lookAhead();
    }
  }

  /** Marks the claimed deliveries in flight and starts posting them. */
  async function launch(due: ClaimedDelivery[]): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ in_flight: 1 })
      .where(
        'id',
        'in',
        due.map((delivery) => delivery.id),
      )
      .execute();
    for (const delivery of due) {
      const work = attempt(delivery)
        .catch(async (error: unknown) => {
          onError(error);
          // Left in flight, it would never be tried again until a restart.
          await releaseLater(delivery.id);
        })
        .finally(() => {
          inFlight.delete(delivery.id);
          if (backlog) wake();
        });
      inFlight.set(delivery.id, work);
    }
  }

  /** Sets the timer for the earliest pending delivery the worker does not already know of. */
  async function lookAhead(): Promise<void> {
    const next = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('status', '=', 'pending')
      .where('in_flight', '=', 0)
      .executeTakeFirst();
    if (next?.next) wakeAt(next.next);
  }

  async function releaseLater(id: string): Promise<void> {
    if (!running) return;
    const retryAt = new Date(now().getTime() + RECOVERY_DELAY_MS).toISOString();
    try {
      await db
        .updateTable('webhook_deliveries')
        .set({ in_flight: 0, next_attempt_at: retryAt })
        .where('id', '=', id)
        .execute();
      wakeAt(retryAt);
    } catch (error) {
      onError(error);
    }
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Threadwork-Webhooks/1.0',
      [EVENT_ID_HEADER]: delivery.event_id,
      [DELIVERY_ID_HEADER]: delivery.id,
    };
    let url: string;
    let active = true;
    let body: string;
    if (delivery.kind === 'v1') {
      // Unsubscribed meanwhile (or an item that was never stored): nothing to send.
      if (delivery.hook_url === null || delivery.item_body === null) {
        return settleUnsent(delivery.id, 'failed');
      }
      url = delivery.hook_url;
      body = delivery.item_body;
    } else {
      if (delivery.target_url === null || delivery.secrets === null) {
        return settleUnsent(delivery.id, 'failed'); // deleted meanwhile
      }
      active = delivery.status === 'active';
      // Disabled while this delivery waited: kept, unsent, for a replay.
      if (!active && !delivery.manual) return settleUnsent(delivery.id, 'suppressed');
      url = delivery.target_url;
      body = eventBody({
        id: delivery.event_id,
        type: delivery.event_type,
        created_at: delivery.event_created_at,
        data: delivery.event_data,
      });
      const signedAt = now();
      const secrets = activeSecrets(parseSecrets(delivery.secrets), signedAt);
      headers[SIGNATURE_HEADER] = signPayload(body, secrets, {
        timestamp: Math.floor(signedAt.getTime() / 1000),
      });
    }
    // Only what has committed may leave: the claim and the event it carries (see db/group-commit.ts).
    await whenCommitted(db);
    const attemptedAt = now();
    const result = await poster.post(url, body, headers, timeoutMs);
    await record({ delivery, subscriptionActive: active, attemptedAt, result });
  }

  async function settleUnsent(id: string, status: 'failed' | 'suppressed'): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ status, in_flight: 0, next_attempt_at: null })
      .where('id', '=', id)
      .execute();
  }

  // Outcomes are written in batches: whatever finished while the previous batch was being written
  // goes into the next transaction, so a busy worker writes once per batch rather than per delivery.
  const pending: Array<{ outcome: AttemptOutcome; settled: (error?: unknown) => void }> = [];
  let writing = false;

  function record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      pending.push({ outcome, settled: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!writing) void writeOutcomes();
    });
  }

  async function writeOutcomes(): Promise<void> {
    writing = true;
    try {
      while (pending.length > 0) {
        const batch = pending.splice(0);
        try {
          const outcomes = batch.map((entry) => entry.outcome);
          const retries = await db.transaction().execute((tx) => recordOutcomes(tx, outcomes, policy));
          for (const retryAt of retries) wakeAt(retryAt);
          for (const entry of batch) entry.settled();
        } catch (error) {
          for (const entry of batch) entry.settled(error);
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    async start() {
      if (running) return;
      // Nothing is in flight before start: whatever is marked so was cut off by a stop or a crash.
      await db.updateTable('webhook_deliveries').set({ in_flight: 0 }).where('in_flight', '=', 1).execute();
      running = true;
      await lookAhead();
      wake();
    },
    wake,
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      timerDueAt = Number.POSITIVE_INFINITY;
      await pumping;
      await Promise.allSettled([...inFlight.values()]);
      poster.close();
    },
  };
}
