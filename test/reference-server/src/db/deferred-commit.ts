// A request's change and its stored idempotency answer commit together on PostgreSQL too (on SQLite
// they join one batch of the group commit). A request that holds an Idempotency-Key runs in a scope
// (`withDeferredCommit`) in which its write transaction, once its work has succeeded, is left open
// instead of committing; the answer is then written in it, and it commits (`finishDeferred`). A
// process killed in between loses both, and a retry runs the request again. What must follow the
// commit (waking the outbox, telling caches) waits for it (`afterCommit`).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ControlledTransaction } from 'kysely';
import type { Database } from './schema.ts';

export interface DeferredCommit {
  /** Set once the request holds its key: from then on its write transaction waits for the answer. */
  wanted: boolean;
  /** The request's write transaction, done but not committed. */
  open?: ControlledTransaction<Database> | undefined;
  /** Run once `open` has committed or rolled back. */
  afterwards: (() => void | Promise<void>)[];
}

const scope = new AsyncLocalStorage<DeferredCommit>();

/** Runs `next` (the rest of a request's handling) in a scope of its own. */
export function withDeferredCommit(next: () => void): void {
  scope.run({ wanted: false, afterwards: [] }, next);
}

/** The scope of the running request, if it has one. */
export function deferredCommit(): DeferredCommit | undefined {
  return scope.getStore();
}

/** Runs `action` once the running request's write transaction has ended; at once if none is open. */
export async function afterCommit(action: () => void | Promise<void>): Promise<void> {
  const deferred = scope.getStore();
  if (deferred?.open !== undefined) deferred.afterwards.push(action);
  else await action();
}

/**
 * Ends the request's open write transaction, if any: `last` runs in it and it commits, or, without
 * `last`, it rolls back. A failure rolls it back and is thrown. Then runs what waited for it.
 */
export async function finishDeferred(
  deferred: DeferredCommit,
  last?: (tx: ControlledTransaction<Database>) => Promise<unknown>,
): Promise<void> {
  const tx = deferred.open;
  deferred.open = undefined;
  deferred.wanted = false;
  try {
    if (tx === undefined) return;
    if (last === undefined) {
      await tx.rollback().execute();
      return;
    }
    try {
      await last(tx);
      await tx.commit().execute();
    } catch (error) {
      await tx
        .rollback()
        .execute()
        .catch(() => {});
      throw error;
    }
  } finally {
    const actions = deferred.afterwards.splice(0);
    for (const action of actions) await action();
  }
}
