// How writes keep out of each other's way, per engine: the one place that knows which rows a write
// locks, how, and in which order (docs/postgresql.md, "Writes"). On SQLite, which has one writer,
// nothing is locked and nothing is sent. Above this line a write only says what it reads in order to
// change it (`'change'`); the repositories (storage/*.ts) turn that into the locks below.
//
// Order: a write that locks more than one row locks a user or a team first, then a board, then a
// custom field, then lists, then tasks; an API key's row comes before the subscriptions, deliveries or
// hooks a write on its behalf touches (deliveries before their subscription, as the delivery worker
// locks them). So no two writes wait for each other in a cycle. The repositories keep it: a move reads
// its destination list before its task (storage/tasks.ts `findTaskToMove`), a reorder holds the task's
// list before it reads the task locked (`findTaskToReorder`).
//
// Users, teams, boards, fields and subscriptions are locked FOR NO KEY UPDATE: that keeps out the other
// writes that lock the same row, while a write that only refers to it (an insert or update whose
// foreign-key check takes FOR KEY SHARE: a task assigned to the user, a value of the field) passes.
// Lists and tasks are locked FOR UPDATE.
//
// A board or a list is locked in front of the write's next statement (`holdRow`): its row, read
// unlocked just before, decides nothing a write running meanwhile could change (boards and lists are
// never deleted, and who may see them changes only as the seed loads; a rename may change the name
// shown), while everything the write then reads under the lock (positions, say) is read as it stands.
// The lock then costs no round trip of its own.
import { type SelectQueryBuilder, sql } from 'kysely';
import { type Executor, isShared } from '../db/executor.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';

/**
 * What a read is for: only to show (`read`), or to decide a change, which holds the row (`change`).
 * `add`, for a list: the write adds a task at its top or bottom and changes nothing else, so it may
 * share its commit with others that do the same (db/sessions.ts `ListGroup`).
 */
export type Intent = 'read' | 'change' | 'add';

const holdBoard = prepareQuery((db: Executor, boardId: string) =>
  db.selectFrom('boards').select('id').where('id', '=', textParam(boardId)).forNoKeyUpdate(),
);
const holdList = prepareQuery((db: Executor, listId: string) =>
  db.selectFrom('lists').select('id').where('id', '=', textParam(listId)).forUpdate(),
);

/**
 * Locks a board's or a list's row until the transaction ends, in front of its next statement (see the
 * top of this file); on SQLite, nothing.
 */
export async function holdRow(tx: Executor, table: 'boards' | 'lists', id: string): Promise<void> {
  if (!isShared(tx)) return;
  await (table === 'boards' ? holdBoard : holdList).writeLater(tx, id);
}

/** Holds the user's row until the transaction ends: the user's keys, subscriptions and mailbox. */
export async function lockUser(tx: Executor, userId: string): Promise<void> {
  if (!isShared(tx)) return;
  await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
}

/** Holds the team's row until the transaction ends: the team's companies and contacts. */
export async function lockTeam(tx: Executor, teamId: string): Promise<void> {
  if (!isShared(tx)) return;
  await tx.selectFrom('teams').select('id').where('id', '=', teamId).forNoKeyUpdate().execute();
}

/**
 * Holds the API key's row until the transaction ends, for a write that makes something the key will
 * own (a subscription, a hook); false if the key is gone (revoked since the request authenticated).
 * FOR KEY SHARE: writes on behalf of one key pass each other, while the key's revocation (which deletes
 * the row, then stops what the key owns) waits for them, or they for it, and so never misses what they
 * make. On SQLite, which has one writer, the read alone decides.
 */
export async function holdKey(tx: Executor, keyId: string): Promise<boolean> {
  const key = await tx
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', keyId)
    .$if(isShared(tx), (query) => query.forKeyShare())
    .executeTakeFirst();
  return key !== undefined;
}

/**
 * A read of one row that decides a change of it (a custom field, a subscription): with `change`, the
 * row is locked FOR NO KEY UPDATE as it is read (PostgreSQL), so it is read as it stands.
 */
export function forIntent<Table extends keyof Database, Row>(
  db: Executor,
  query: SelectQueryBuilder<Database, Table, Row>,
  intent: Intent,
): SelectQueryBuilder<Database, Table, Row> {
  return intent === 'change' && isShared(db) ? query.forNoKeyUpdate() : query;
}

/**
 * Outbox rows for the delivery worker: on PostgreSQL those another process holds (it is sending them)
 * are skipped and the rest locked until the transaction ends, so no two processes take one.
 */
export function claimable<Table extends keyof Database, Row>(
  db: Executor,
  query: SelectQueryBuilder<Database, Table, Row>,
): SelectQueryBuilder<Database, Table, Row> {
  return isShared(db) ? query.forUpdate().skipLocked() : query;
}

/**
 * How the delivery worker claims an outbox row: where other processes deliver from the same outbox
 * (PostgreSQL), by a transaction of its own that locks the row (`FOR UPDATE SKIP LOCKED`) and stays
 * open through the attempt, the lock going with a dead process's connection (`'row-locks'`); where this
 * process alone delivers (SQLite), by marking the row in flight (`'marks'`).
 */
export function deliveryClaims(db: Executor): 'row-locks' | 'marks' {
  return isShared(db) ? 'row-locks' : 'marks';
}

/**
 * The class of the advisory locks (two-key form: the other key is a hash of the event and the
 * subscription) that send deliveries of one event to one subscription one at a time (PostgreSQL).
 */
const SIBLINGS_LOCK_CLASS = 0x7477_6476; // "twdv"

/**
 * In a delivery's claiming transaction (`deliveryClaims` `'row-locks'`): waits until no other
 * transaction, in any process, attempts a delivery of the same sibling group (`key`: one event to one
 * subscription), and holds the group until the transaction ends.
 */
export async function holdSiblingDeliveries(tx: Executor, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${SIBLINGS_LOCK_CLASS}, hashtext(${key}))`.execute(tx);
}
