// The users repository's reads by who a user is: by id, by email, the oldest. A user's rows are made
// by the seed (seed/load-seed.ts); who may see whom is storage/access.ts's.
import type { Executor } from '../db/executor.ts';

function users(db: Executor) {
  return db.selectFrom('users').select(['id', 'email', 'display_name']);
}

/** The user of this id; undefined if none. */
export function findUserById(db: Executor, id: string) {
  return users(db).where('id', '=', id).executeTakeFirst();
}

/** The user with exactly this email; undefined if none. */
export function findUserByEmail(db: Executor, email: string) {
  return users(db).where('email', '=', email).executeTakeFirst();
}

/** The user with this email in any case (`email` given in lower case); undefined if none. */
export function findUserByEmailAnyCase(db: Executor, email: string) {
  return users(db)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
}

/** The oldest user (ties by id); undefined if there is none. */
export function findOldestUser(db: Executor) {
  return users(db).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}
