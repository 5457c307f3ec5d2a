// The change feed: a process-local signal, after commit, of what changed (a task on a board, a thread,
// a delivery, a key). The console's live pages follow it over server-sent events. A change noted inside
// a transaction is published only once that transaction has committed (see runInTransaction), so a
// follower that reads on the signal always sees the change; a rolled-back change is never published.
// Until the console opens the feed (at start, with --console), a note costs one WeakMap lookup, and
// nothing is kept. Process-local by design:
// several server processes on one PostgreSQL database do not hear each other's changes (docs/console.md).
//
// The feed has a position: `<instance>.<n>`, n counting the batches published since the feed opened,
// the instance naming this process's feed. A page learns the position its stream started at
// and the position each of its reads started at (`feedPosition`): a read that started at or after the
// stream's start shows everything the stream will not tell it; an older read, or one of another
// instance (a server restarted since), may have missed a change, and the page reads it again.
import { randomBytes } from 'node:crypto';
import type { ConsoleChange } from '@threadwork/shared/schemas';
import { databaseKey, type Executor } from '../../db/executor.ts';

/** A committed change, as the console's event stream sends it (the shape lives in the shared schemas). */
export type Change = ConsoleChange;

/** Called with each published batch and the feed's position once it is published. */
export type ChangeListener = (changes: readonly Change[], position: string) => void;

interface Feed {
  readonly instance: string;
  /** Batches published since the feed opened. */
  published: number;
  /** Whether the console opened the feed: only then are changes noted at all. */
  open: boolean;
  readonly followers: Set<ChangeListener>;
}

const feeds = new WeakMap<object, Feed>();
const pendingByTransaction = new WeakMap<Executor, Change[]>();

function feedOf(db: Executor): Feed {
  const key = databaseKey(db);
  let feed = feeds.get(key);
  if (!feed) {
    feed = { instance: randomBytes(4).toString('hex'), published: 0, open: false, followers: new Set() };
    feeds.set(key, feed);
  }
  return feed;
}

const positionOf = (feed: Feed) => `${feed.instance}.${feed.published}`;

/** Where the feed stands now: a read that starts now shows every change published up to here. */
export function feedPosition(db: Executor): string {
  return positionOf(feedOf(db));
}

/**
 * From now on every change is noted and counted, followed or not (the console calls it as it starts,
 * so that no change, and no read of a page, comes before it).
 */
export function openFeed(db: Executor): void {
  feedOf(db).open = true;
}

/** Follows every change published on this database from now; answers where it starts, and the unfollow. */
export function followChanges(
  db: Executor,
  listener: ChangeListener,
): { position: string; unfollow(): void } {
  const feed = feedOf(db);
  feed.open = true;
  feed.followers.add(listener);
  return { position: positionOf(feed), unfollow: () => feed.followers.delete(listener) };
}

/** Notes a change made inside `tx`, published when it commits (runInTransaction calls takeNotedChanges). */
export function noteChange(tx: Executor, change: Change): void {
  const feed = feeds.get(databaseKey(tx));
  if (!feed?.open) return;
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
  const feed = feeds.get(databaseKey(db));
  if (!feed?.open || changes.length === 0) return;
  // Counted even with no one following now: a page that reconnects learns that it missed something.
  feed.published++;
  const position = positionOf(feed);
  for (const follower of feed.followers) {
    try {
      follower(changes, position);
    } catch {
      // A follower's failure (a closed stream) must never reach the writer.
    }
  }
}
