// The change feed: a process-local signal, after commit, of what changed (a task on a board, a thread,
// a delivery, a key). The console's live pages follow it over server-sent events. A change noted inside
// a transaction is published only once that transaction has committed (see runInTransaction), so a
// follower that reads on the signal always sees the change; a rolled-back change is never published.
// With no follower the feed costs one WeakMap lookup per note. Process-local by design: several server
// processes on one PostgreSQL database do not hear each other's changes (docs/console.md).
import type { ConsoleChange } from '@threadwork/shared/schemas';
import { databaseKey, type Executor } from '../../db/database.ts';

/** A committed change, as the console's event stream sends it (the shape lives in the shared schemas). */
export type Change = ConsoleChange;

export type ChangeListener = (changes: readonly Change[]) => void;

const followersByDatabase = new WeakMap<object, Set<ChangeListener>>();
const pendingByTransaction = new WeakMap<Executor, Change[]>();

function followersOf(db: Executor): Set<ChangeListener> | undefined {
  const followers = followersByDatabase.get(databaseKey(db));
  return followers && followers.size > 0 ? followers : undefined;
}

/** Follows every change published on this database; returns the unfollow function. */
export function followChanges(db: Executor, listener: ChangeListener): () => void {
  const key = databaseKey(db);
  let followers = followersByDatabase.get(key);
  if (!followers) {
    followers = new Set();
    followersByDatabase.set(key, followers);
  }
  followers.add(listener);
  return () => followers.delete(listener);
}

/** Notes a change made inside `tx`, published when it commits (runInTransaction calls takeNotedChanges). */
export function noteChange(tx: Executor, change: Change): void {
  if (!followersOf(tx)) return;
  // A write outside a transaction has nothing to wait for.
  if (!tx.isTransaction) {
    publishChanges(tx, [change]);
    return;
  }
  const pending = pendingByTransaction.get(tx);
  if (pending) pending.push(change);
  else pendingByTransaction.set(tx, [change]);
}

/** The changes noted inside `tx`, forgotten here. */
export function takeNotedChanges(tx: Executor): Change[] {
  const pending = pendingByTransaction.get(tx) ?? [];
  pendingByTransaction.delete(tx);
  return pending;
}

/** Publishes changes that have already committed (or that were noted in a transaction that has). */
export function publishChanges(db: Executor, changes: readonly Change[]): void {
  const followers = followersOf(db);
  if (!followers || changes.length === 0) return;
  for (const follower of followers) {
    try {
      follower(changes);
    } catch {
      // A follower's failure (a closed stream) must never reach the writer.
    }
  }
}

/** Whether anyone follows this database's changes (writers may skip building a change). */
export function hasFollowers(db: Executor): boolean {
  return followersOf(db) !== undefined;
}
