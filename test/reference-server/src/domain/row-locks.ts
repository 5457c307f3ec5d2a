// The rows the rare writes lock on PostgreSQL, each before reading what it decides on (see
// docs/postgresql.md, "Writes"). On SQLite, which has one writer, locking is needless and nothing is sent.
//
// Order: a write that locks more than one row locks a user or a team first, then a board, then a custom
// field, then lists, then tasks (the task commands lock lists, then tasks, and lock nothing above
// them), so no two writes can wait for each other in a cycle. An API key's row comes before the
// subscriptions and deliveries a write on its behalf touches (see `holdKey`).
//
// These locks are FOR NO KEY UPDATE: they keep out the other writes that lock the same row, while a
// write that only refers to it (an insert or update whose foreign-key check takes FOR KEY SHARE: a
// task assigned to the user, a value of the field) passes without waiting.
import { type Executor, isShared } from '../db/executor.ts';
import { ServiceError } from './errors.ts';

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
 * Holds the API key's row until the transaction ends, for a write that makes something the key will own
 * (a subscription, a hook), and answers 401 if the key is gone: revoked since the request authenticated.
 * FOR KEY SHARE: writes on behalf of one key pass each other, while the key's revocation (which deletes
 * the row, then stops what the key owns) waits for them, or they for it, and so never misses what they
 * make. On SQLite, which has one writer, the read alone decides.
 */
export async function holdKey(tx: Executor, keyId: string): Promise<void> {
  const key = await tx
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', keyId)
    .$if(isShared(tx), (query) => query.forKeyShare())
    .executeTakeFirst();
  if (!key) throw new ServiceError('unauthenticated', 'the API key was revoked');
}
