// The delivery worker: reads the outbox (`webhook_deliveries`), POSTs what is due with bounded
// concurrency and logs every attempt (outcomes.ts decides what each answer means). It is woken right
// after a commit that queued something, and otherwise sleeps until the next attempt falls due. A
// delivery that was in flight when the process died is tried again on start (at-least-once).
//
// On a shared database (PostgreSQL) several processes deliver from one outbox. There each delivery is
// claimed in a transaction of its own that locks its row (`FOR UPDATE SKIP LOCKED`) and stays open
// until the attempt is recorded: no other process can take the row meanwhile, and no delivery goes out
// twice; if the process dies, its connection closes, the lock goes and the delivery is due again at
// once, for any process (at-least-once, as above). Every process also looks at the outbox every
// `SHARED_POLL_MS`, so that what another process queued or scheduled and then died holding is not lost.
//
// Deliveries of one event to one subscription (an original and its replays) are sent one at a time, in
// any process: an attempt of one that has siblings first waits for any sibling being attempted (an
// advisory lock on PostgreSQL, held until the attempt is recorded and committed; a lock in memory on
// SQLite) and then checks whether a sibling succeeded since it was made. If one did, it stops as
// `suppressed` unsent: a replay that succeeds ends the original's retries, even one about to go.
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signPayload,
} from '@threadwork/shared/webhooks';
import type { Kysely } from 'kysely';
import type { Executor } from '../db/executor.ts';
import type { Database } from '../db/schema.ts';
import { whenCommitted } from '../db/transaction.ts';
import { publishChanges } from '../domain/events/feed.ts';
import { eventBody } from '../domain/events/webhook-body.ts';
import type { Outbox } from '../domain/transaction.ts';
import type { WebhookTargetPolicy } from '../domain/webhook-targets.ts';
import { activeSecrets, parseSecrets } from '../domain/webhooks.ts';
import {
  type ClaimedDelivery,
  claimDueDelivery,
  clearInFlightMarks,
  dueDeliveries,
  markInFlight,
  nextDueTime,
  putOffDelivery,
  settleUnsentDelivery,
  siblingSucceededSince,
} from '../storage/deliveries.ts';
import { deliveryClaims, holdSiblingDeliveries } from '../storage/locks.ts';
import { type AttemptOutcome, recordOutcomes } from './outcomes.ts';
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
/** Shared database: how often a process looks for deliveries that other processes left due. */
const SHARED_POLL_MS = 1000;
/** Shared database: deliveries in flight at once per process, each holding a connection of the pool. */
const SHARED_CONCURRENCY = 8;

/** setTimeout's ceiling; a later due time is simply looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The deliveries of one event to one subscription share this key. */
const siblingsKey = (delivery: ClaimedDelivery) =>
  `${delivery.kind}\n${delivery.subscription_id}\n${delivery.event_id}`;

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, now } = options;
  const shared = deliveryClaims(db) === 'row-locks';
  const concurrency = Math.min(
    options.concurrency ?? 32,
    shared ? SHARED_CONCURRENCY : Number.POSITIVE_INFINITY,
  );
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
  let poll: NodeJS.Timeout | null = null;
  /** SQLite: the sibling groups (`siblingsKey`) being attempted, each until its attempt is recorded. */
  const attempting = new Map<string, Promise<void>>();

  /**
   * Waits until no other delivery of the same event to the same subscription is being attempted, and
   * holds that until `release` (on PostgreSQL, until `tx` ends; `release` does nothing).
   */
  async function holdSiblings(delivery: ClaimedDelivery, tx?: Executor): Promise<() => void> {
    const key = siblingsKey(delivery);
    if (tx !== undefined) {
      await holdSiblingDeliveries(tx, key);
      return () => {};
    }
    for (let busy = attempting.get(key); busy !== undefined; busy = attempting.get(key)) await busy;
    let release = () => {};
    attempting.set(
      key,
      new Promise<void>((resolve) => {
        release = () => {
          attempting.delete(key);
          resolve();
        };
      }),
    );
    return release;
  }

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
    if (shared) {
      // One claimer looks; each that finds a delivery starts another while slots are free.
      backlog = false;
      startSharedClaimer();
      return;
    }
    // One query per batch: the due deliveries with their subscriptions' state.
    const due = await dueDeliveries(db, now().toISOString(), slots);
    backlog = due.length === slots;
    if (due.length > 0) await launch(due);
    // Asked after the claim is marked, so the claimed deliveries are not mistaken for the next due one.
    if (lookAheadNeeded && !backlog) {
      lookAheadNeeded = false;
      await lookAhead();
    }
  }

  let claimers = 0;
  /**
   * Shared database: one claimer takes due deliveries one at a time, each in its own transaction that
   * holds the row's lock through the attempt (see the top of this file), until none is due.
   */
  function startSharedClaimer(): void {
    const id = `claimer:${++claimers}`;
    /** The delivery being attempted: if its transaction fails, it is put off rather than retried at once. */
    let current: string | null = null;
    const work = (async () => {
      let claimed = true;
      while (claimed && running) {
        claimed = await db.transaction().execute(async (tx) => {
          const delivery = await claimDueDelivery(tx, now().toISOString());
          if (delivery === undefined) return false;
          if (inFlight.size < concurrency) startSharedClaimer();
          else backlog = true;
          current = delivery.id;
          await attempt(delivery, tx);
          return true;
        });
        current = null;
      }
      if (lookAheadNeeded) {
        lookAheadNeeded = false;
        await lookAhead();
      }
    })()
      .catch(async (error: unknown) => {
        if (running) onError(error);
        if (current !== null) await releaseLater(current);
        else wakeAt(new Date(now().getTime() + RECOVERY_DELAY_MS).toISOString());
      })
      .finally(() => {
        inFlight.delete(id);
        if (backlog) wake();
      });
    inFlight.set(id, work);
  }

  /** Marks the claimed deliveries in flight and starts posting them. */
  async function launch(due: ClaimedDelivery[]): Promise<void> {
    await markInFlight(
      db,
      due.map((delivery) => delivery.id),
    );
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
    const next = await nextDueTime(db);
    if (next) wakeAt(next);
  }

  async function releaseLater(id: string): Promise<void> {
    if (!running) return;
    const retryAt = new Date(now().getTime() + RECOVERY_DELAY_MS).toISOString();
    try {
      await putOffDelivery(db, id, retryAt);
      wakeAt(retryAt);
    } catch (error) {
      onError(error);
    }
  }

  /**
   * Posts one delivery and records the outcome; `tx`: in that transaction (shared database), at once.
   * A delivery with siblings is sent only after any sibling's attempt is recorded, and not at all once
   * a sibling succeeded (see the top of this file).
   */
  async function attempt(delivery: ClaimedDelivery, tx?: Executor): Promise<void> {
    if (!delivery.has_siblings) return send(delivery, tx);
    const release = await holdSiblings(delivery, tx);
    try {
      if (await siblingSucceededSince(tx ?? db, delivery))
        return await settleUnsent(delivery.id, 'suppressed', tx);
      return await send(delivery, tx);
    } finally {
      release();
    }
  }

  async function send(delivery: ClaimedDelivery, tx?: Executor): Promise<void> {
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
        return settleUnsent(delivery.id, 'failed', tx);
      }
      url = delivery.hook_url;
      body = delivery.item_body;
    } else {
      if (delivery.target_url === null || delivery.secrets === null) {
        return settleUnsent(delivery.id, 'failed', tx); // deleted meanwhile
      }
      active = delivery.status === 'active';
      // Disabled while this delivery waited: kept, unsent, for a replay.
      if (!active && !delivery.manual) return settleUnsent(delivery.id, 'suppressed', tx);
      url = delivery.target_url;
      body = eventBody({
        id: delivery.event_id,
        type: delivery.event_type,
        created_at: delivery.event_created_at,
        data: delivery.event_data,
      });
    }
    // Only what has committed may leave: the claim and the event it carries (see db/group-commit.ts).
    await whenCommitted(db);
    const attemptedAt = now();
    if (delivery.kind === 'v2' && delivery.secrets !== null) {
      // Signed at the attempt's own time, so the signature can be shown again from the attempt's log.
      const secrets = activeSecrets(parseSecrets(delivery.secrets), attemptedAt);
      headers[SIGNATURE_HEADER] = signPayload(body, secrets, {
        timestamp: Math.floor(attemptedAt.getTime() / 1000),
      });
    }
    const result = await poster.post(url, body, headers, timeoutMs);
    const outcome = { delivery, subscriptionActive: active, attemptedAt, result };
    if (tx === undefined) await record(outcome);
    else for (const retryAt of await recordOutcomes(tx, [outcome], policy)) wakeAt(retryAt);
    // A shared database's transaction (`tx`) commits later; its follower reads a moment too early at worst.
    publishChanges(db, [{ topic: 'delivery', delivery_id: delivery.id }]);
  }

  async function settleUnsent(
    id: string,
    status: 'failed' | 'suppressed',
    executor: Executor = db,
  ): Promise<void> {
    await settleUnsentDelivery(executor, id, status);
    publishChanges(db, [{ topic: 'delivery', delivery_id: id }]);
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
      // Nothing is in flight before start: whatever is marked so was cut off by a stop or a crash. (A
      // shared database marks nothing: its claims are row locks, which go with the connection.)
      if (!shared) {
        await clearInFlightMarks(db);
      }
      running = true;
      if (shared) {
        poll = setInterval(() => {
          lookAheadNeeded = true;
          wake();
        }, SHARED_POLL_MS);
        poll.unref();
      }
      await lookAhead();
      wake();
    },
    wake,
    async stop() {
      running = false;
      if (poll) clearInterval(poll);
      poll = null;
      if (timer) clearTimeout(timer);
      timer = null;
      timerDueAt = Number.POSITIVE_INFINITY;
      await pumping;
      await Promise.allSettled([...inFlight.values()]);
      poster.close();
    },
  };
}
