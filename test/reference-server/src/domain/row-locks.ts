// The rows the rare writes lock on PostgreSQL, each before reading what it decides on (see
// docs/postgresql.md, "Writes"). On SQLite, which has one writer, locking is needless and nothing is sent.
//
// Order: a write that locks more than one row locks a user or a team first, then a board, then a custom
// field, then lists, then tasks (the task commands lock lists, then tasks, and lock nothing above
// them), so no two writes can wait for each other in a cycle.
//
// These locks are FOR NO KEY UPDATE: they keep out the other writes that lock the same row, while a
// write that only refers to it (an insert or update whose foreign-key check takes FOR KEY SHARE: a
// task assigned to the user, a value of the field) passes without waiting.
import { type Executor, isShared } from '../db/database.ts';

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
