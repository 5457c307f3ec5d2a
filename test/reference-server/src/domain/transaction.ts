// The one way a state change is written: one transaction holding the change and its events, and,
// once it is done, a nudge to the delivery worker so the events leave as soon as they have committed.
import type { Kysely } from 'kysely';
import { afterCommit, type DeferredCommit } from '../db/deferred-commit.ts';
import type { Executor } from '../db/executor.ts';
import type { Database } from '../db/schema.ts';
import { type Locking, transact, whenCommitted } from '../db/transaction.ts';
import type { ResolvedServerOptions } from '../options.ts';
import { type Change, publishChanges, takeNotedChanges } from './events/feed.ts';
import { subscriptionsChanged } from './events/listeners.ts';

/** The delivery worker as the domain sees it: told when the outbox has something new. */
export interface Outbox {
  wake(): void;
}

export interface DomainContext {
  db: Kysely<Database>;
  /** The injectable clock: read the time only through this. */
  now(): Date;
  outbox: Outbox;
  options: ResolvedServerOptions;
  /**
   * The running request's deferred commit, when it holds an Idempotency-Key on PostgreSQL: its write
   * transactions stay open for its answer (db/deferred-commit.ts). Undefined elsewhere.
   */
  deferred?: DeferredCommit | undefined;
}

// Transactions that wrote to the outbox; weak, so a finished transaction is simply forgotten.
const outboxWrites = new WeakSet<Executor>();

/** Called by the events module whenever it enqueues a delivery inside `tx`. */
export function noteOutboxWrite(tx: Executor): void {
  outboxWrites.add(tx);
}

/**
 * Runs `work` in one transaction. Once it has succeeded, wakes the delivery worker if `work`
 * recorded an event; a rollback wakes nothing, so no delivery of an unwritten change can leave.
 * `locking` says how it keeps out of other writers' way on PostgreSQL (see `Locking`): `rows` only for
 * work that locks what it reads to decide, in the order `Locking` gives (the task commands; for the
 * rare writes, see storage/locks.ts).
 */
export async function runInTransaction<T>(
  ctx: DomainContext,
  work: (tx: Executor) => Promise<T>,
  locking: Locking = 'everything',
): Promise<T> {
  let wroteOutbox = false;
  let changes: Change[] = [];
  let result: T;
  try {
    result = await transact(
      ctx.db,
      async (tx) => {
        const value = await work(tx);
        wroteOutbox = outboxWrites.has(tx);
        changes = takeNotedChanges(tx);
        return value;
      },
      locking,
      ctx.deferred,
    );
  } catch (error) {
    // What the rolled-back work learnt about subscriptions may no longer hold.
    subscriptionsChanged(ctx.db);
    throw error;
  }
  // Once the change has committed (with its idempotency answer, on PostgreSQL: db/deferred-commit.ts).
  await afterCommit(ctx.deferred, (committed) => {
    if (wroteOutbox) ctx.outbox.wake();
    if (!committed || changes.length === 0) return;
    // The change feed hears of it once it has really committed (group commit may still hold it).
    const batch = whenCommitted(ctx.db);
    if (batch === null) publishChanges(ctx.db, changes);
    else
      batch.then(
        () => publishChanges(ctx.db, changes),
        () => {},
      );
  });
  return result;
}
