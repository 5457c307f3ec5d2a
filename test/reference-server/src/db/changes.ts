// What in-process caches need to stay right when other processes write to the same database
// (PostgreSQL; see docs/postgresql.md). Each kind of change has a count per database: a cache notes
// the count before it reads and keeps what it read only while the count is unchanged. This process's
// own changes move the count once they have committed. Other processes' changes move it in one of two
// ways. A write transaction (`data`) moves a version once it has committed, in the round trip of its
// commit and before its request is answered (`BUMP_DATA_VERSION`, a sequence: no lock, no row); a
// change of keys or users (`credentials`, rare) is announced (LISTEN/NOTIFY, sent by PostgreSQL at its
// commit). Before answering from a cache a request makes sure it knows of every change committed
// before it arrived (`caughtUp`): one query on the listening connection, shared by the requests waiting
// at the time, that reads the version, and whose answer PostgreSQL sends only after every notification
// already due. While the listening connection is down, notifications may be lost, so every cache is
// bypassed.
import { sql } from 'kysely';
import type { Client } from 'pg';
import { databaseKey, type Executor, isShared } from './executor.ts';
import { DATA_VERSION } from './migrations/009_data_version.ts';

/** `data`: any write transaction (rendered pages); `credentials`: API keys and users (principals). */
export type ChangeTopic = 'data' | 'credentials';

/** The channel every server process of a database listens on (NOTIFY is per database). */
export const CHANGES_CHANNEL = 'threadwork_changes';

interface Changes {
  counts: Record<ChangeTopic, number>;
  /** Whether notifications are arriving (always true on a database this process owns). */
  live: boolean;
  /** The data version last read (`BUMP_DATA_VERSION`); undefined before the first read. */
  dataVersion?: string | undefined;
  /** The listening connection, once it listens. */
  client?: Client | undefined;
  /** The query `caughtUp` sent last, until it is answered; and the one to send once it is. */
  inFlight?: Promise<boolean> | undefined;
  queued?: Promise<boolean> | undefined;
}

const changesByDatabase = new WeakMap<object, Changes>();

function changesOf(executor: Executor): Changes {
  const key = databaseKey(executor);
  let changes = changesByDatabase.get(key);
  if (changes === undefined) {
    changes = { counts: { data: 0, credentials: 0 }, live: !isShared(executor) };
    changesByDatabase.set(key, changes);
  }
  return changes;
}

/** How many changes of `topic` this process knows of so far. */
export function changeCount(executor: Executor, topic: ChangeTopic): number {
  return changesOf(executor).counts[topic];
}

/** Whether a cache may keep anything now: false while other processes' changes could go unheard. */
export function cachesUsable(executor: Executor): boolean {
  return changesOf(executor).live;
}

const caughtUpFor = new WeakMap<object, Promise<boolean>>();

/**
 * Whether this process has now heard of every change committed before `request` (any object that
 * stands for it) arrived: true at once on SQLite; on PostgreSQL once a query sent after that time has
 * been answered on the listening connection (one per request, however often asked), false if the
 * connection is down. Answer from a cache only when it is true, checking its count after.
 */
export function caughtUp(executor: Executor, request: object): true | Promise<boolean> {
  if (!isShared(executor)) return true;
  let heard = caughtUpFor.get(request);
  if (heard === undefined) {
    heard = syncAfterNow(changesOf(executor));
    caughtUpFor.set(request, heard);
  }
  return heard;
}

/** A query on the listening connection sent from now on: the one in flight was sent too early. */
function syncAfterNow(changes: Changes): Promise<boolean> {
  if (changes.inFlight === undefined) return sendSync(changes);
  changes.queued ??= changes.inFlight.then(() => {
    changes.queued = undefined;
    return sendSync(changes);
  });
  return changes.queued;
}

/** The version as it stands (a fresh sequence has not been called yet: its first move keeps last_value). */
const READ_DATA_VERSION = `select last_value || ' ' || is_called as version from ${DATA_VERSION}`;

function sendSync(changes: Changes): Promise<boolean> {
  const client = changes.client;
  if (client === undefined || !changes.live) return Promise.resolve(false);
  const sent: Promise<boolean> = client
    .query<{ version: string }>({ name: 'tw_data_version', text: READ_DATA_VERSION })
    .then(
      ({ rows }) => {
        const version = rows[0]?.version;
        // Moved since last read (or never read: whatever was kept may predate it).
        if (version !== changes.dataVersion) {
          changes.dataVersion = version;
          changes.counts.data++;
        }
        return changes.live && changes.client === client;
      },
      () => false,
    );
  changes.inFlight = sent;
  void sent.then(() => {
    if (changes.inFlight === sent) changes.inFlight = undefined;
  });
  return sent;
}

/** This process changed `topic`, and the change has committed (or failed): caches re-read. */
export function noteChange(executor: Executor, topic: ChangeTopic): void {
  changesOf(executor).counts[topic]++;
}

/**
 * Tells every other process of a change to `topic`: inside a transaction, at its commit (and not at
 * all if it rolls back). On SQLite nothing else is told. The caller notes its own change too.
 */
export async function announceChange(executor: Executor, topic: ChangeTopic): Promise<void> {
  if (!isShared(executor)) return;
  await sql.raw(`select pg_notify('${CHANGES_CHANNEL}', '${topic}')`).execute(executor);
}

/**
 * Listens for other processes' changes on a connection of its own, reconnecting after a second when it
 * is lost (caches are bypassed meanwhile, and forget everything when it is back). Answers a stop.
 */
export function listenForChanges(executor: Executor, connect: () => Client): () => Promise<void> {
  const changes = changesOf(executor);
  let client: Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const everything = () => {
    for (const topic of Object.keys(changes.counts) as ChangeTopic[]) changes.counts[topic]++;
    changes.dataVersion = undefined;
  };
  const lost = () => {
    changes.live = false;
    changes.client = undefined;
    everything();
    client?.removeAllListeners();
    client?.on('error', () => {});
    void client?.end().catch(() => {});
    client = undefined;
    if (!stopped && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        void start();
      }, 1000);
    }
  };
  const start = async () => {
    const next = connect();
    client = next;
    next.on('notification', (message) => {
      const topic = message.payload as ChangeTopic;
      if (topic in changes.counts) changes.counts[topic]++;
    });
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`listen ${CHANGES_CHANNEL}`);
      if (stopped || client !== next) return;
      // Whatever changed while no one listened is unknown: start afresh.
      everything();
      changes.client = next;
      changes.live = true;
    } catch {
      if (client === next) lost();
    }
  };
  void start();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    changes.live = false;
    changes.client = undefined;
    const last = client;
    client = undefined;
    last?.removeAllListeners();
    last?.on('error', () => {});
    await last?.end().catch(() => {});
  };
}
