// The v1 hook subscriptions repository. The rules (which action goes on which object, whose a hook
// is) are domain/v1-hooks.ts's. Deliveries still owed to a hook are written before the hook, in the
// order the delivery worker locks them (storage/locks.ts).
import type { Executor } from '../db/executor.ts';
import type { V1HookSubscriptionsTable } from '../db/schema.ts';

export async function insertHook(db: Executor, row: V1HookSubscriptionsTable): Promise<void> {
  await db.insertInto('v1_hook_subscriptions').values(row).execute();
}

/** The user's hook of this id; undefined if none. */
export function findUserHook(db: Executor, userId: string, id: string) {
  return db
    .selectFrom('v1_hook_subscriptions')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes the hook, marking the deliveries still owed to it failed; false if it was deleted meanwhile. */
export async function deleteHookRow(db: Executor, id: string): Promise<boolean> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('kind', '=', 'v1')
    .where('subscription_id', '=', id)
    .where('status', '=', 'pending')
    .execute();
  const deleted = await db.deleteFrom('v1_hook_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Deletes the key's hooks, marking the deliveries still owed to them failed; answers how many. */
export async function deleteKeyHooks(tx: Executor, keyId: string): Promise<number> {
  await tx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('kind', '=', 'v1')
    .where('status', '=', 'pending')
    .where('subscription_id', 'in', (eb) =>
      eb.selectFrom('v1_hook_subscriptions').select('id').where('key_id', '=', keyId),
    )
    .execute();
  const deleted = await tx.deleteFrom('v1_hook_subscriptions').where('key_id', '=', keyId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/**
 * Deletes a hook the delivery worker gave up on (delivery/outcomes.ts); the deliveries still owed to it
 * settle as each falls due (failed, unsent: the hook is gone).
 */
export async function deleteAbandonedHook(tx: Executor, id: string): Promise<void> {
  await tx.deleteFrom('v1_hook_subscriptions').where('id', '=', id).execute();
}
