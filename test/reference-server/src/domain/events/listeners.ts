import { databaseKey, type Executor, isShared } from '../../db/executor.ts';
import { prepareQuery } from '../../db/prepared.ts';
import { readAtBegin, readAtBeginOf } from '../../db/transaction.ts';
import { noteChange } from './feed.ts';

// Whether any v2 subscription or v1 hook exists at all, per database: most changes have no one to
// tell, and then the fan-out costs no query. Every write that creates or deletes a subscription calls
// `subscriptionsChanged`, and so does a rolled-back transaction (see runInTransaction). On a shared
// database (PostgreSQL) another process may subscribe at any time, so the answer is not kept there:
// every write transaction reads it afresh in the round trip that begins it. A subscription made or
// deleted by a write running meanwhile is then as if made or deleted after it (it reads nothing the
// transaction writes).
interface Listeners {
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

/** Forgets whether subscriptions exist: call after creating or deleting a v2 subscription or v1 hook. */
export function subscriptionsChanged(db: Executor): void {
  listenersByDatabase.delete(databaseKey(db));
  // The console's deliveries page lists subscriptions and hooks (and its keys page counts them).
  noteChange(db, { topic: 'subscription' });
}

readAtBegin('listeners_v2', 'exists (select 1 from webhook_subscriptions)');
readAtBegin('listeners_v1', 'exists (select 1 from v1_hook_subscriptions)');

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
