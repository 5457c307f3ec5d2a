// Whether any v2 subscription or v1 hook exists at all, per database: most changes have no one to
// tell, and then the fan-out costs no query. On a database this process owns (SQLite) the answer is
// kept until a write that creates or deletes a subscription forgets it (`forgetListeners`, as does
// a rolled-back transaction). On a shared one (PostgreSQL) another process may subscribe at any time,
// so the answer is not kept: every write transaction reads it afresh in the round trip that begins it
// (`readAtBegin`). A subscription made or deleted by a write running meanwhile is then as if made or
// deleted after it (it reads nothing the transaction writes).
import { databaseKey, type Executor, isShared } from '../db/executor.ts';
import { prepareQuery } from '../db/prepared.ts';
import { readAtBegin, readAtBeginOf } from '../db/transaction.ts';

export interface Listeners {
  v2: boolean;
  v1: boolean;
}
const listenersByDatabase = new WeakMap<object, Listeners>();

const selectListeners = prepareQuery((db: Executor) =>
  db.selectNoFrom((eb) => [
    eb.exists(eb.selectFrom('webhook_subscriptions').select('id')).as('v2'),
    eb.exists(eb.selectFrom('v1_hook_subscriptions').select('id')).as('v1'),
  ]),
);

readAtBegin('listeners_v2', 'exists (select 1 from webhook_subscriptions)');
readAtBegin('listeners_v1', 'exists (select 1 from v1_hook_subscriptions)');

/** Forgets whether subscriptions exist: after creating or deleting a v2 subscription or v1 hook. */
export function forgetListeners(db: Executor): void {
  listenersByDatabase.delete(databaseKey(db));
}

/** Whether any v2 subscription, and any v1 hook, exists. */
export async function listeners(tx: Executor): Promise<Listeners> {
  const atBegin = readAtBeginOf(tx);
  if (atBegin !== undefined)
    return { v2: Boolean(atBegin['listeners_v2']), v1: Boolean(atBegin['listeners_v1']) };
  const key = databaseKey(tx);
  let known = listenersByDatabase.get(key);
  if (known === undefined) {
    const row = await selectListeners.executeTakeFirst(tx);
    known = { v2: Boolean(row?.v2), v1: Boolean(row?.v1) };
    if (!isShared(tx)) listenersByDatabase.set(key, known);
  }
  return known;
}
