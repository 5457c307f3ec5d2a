// The API keys repository: a user's keys, what each holds (its subscriptions and hooks), and the
// writes that make and delete one. The rules (which scopes a key may hold, what revoking it stops) are
// domain/api-keys.ts's.
import type { KeySubscriptions } from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { ApiKeysTable } from '../db/schema.ts';
import type { Page, PageRequest } from '../domain/pagination.ts';
import { lockUser } from './locks.ts';
import { paginate } from './pagination.ts';

/** A page of the user's keys, oldest first. */
export function pageUserKeys(db: Executor, userId: string, page: PageRequest): Promise<Page<ApiKeysTable>> {
  return paginate(
    page,
    ['created_at', 'id'],
    (after, take) => {
      let query = db.selectFrom('api_keys').selectAll().where('user_id', '=', userId);
      if (after) query = query.where(after);
      return query.orderBy('created_at').orderBy('id').limit(take).execute();
    },
    (row) => [row.created_at, row.id],
  );
}

/** What each key holds: its active v2 subscriptions and its v1 hooks (none for a key without any). */
export async function keyHoldings(db: Executor, keyIds: string[]): Promise<Map<string, KeySubscriptions>> {
  const holdings = new Map(keyIds.map((id) => [id, { webhooks: 0, hooks: 0 }]));
  if (keyIds.length === 0) return holdings;
  const [webhooks, hooks] = await Promise.all([
    db
      .selectFrom('webhook_subscriptions')
      .select((eb) => ['key_id', eb.fn.countAll<number | string>().as('count')])
      .where('key_id', 'in', keyIds)
      .where('status', '=', 'active')
      .groupBy('key_id')
      .execute(),
    db
      .selectFrom('v1_hook_subscriptions')
      .select((eb) => ['key_id', eb.fn.countAll<number | string>().as('count')])
      .where('key_id', 'in', keyIds)
      .groupBy('key_id')
      .execute(),
  ]);
  // PostgreSQL counts in bigint, which arrives as a string.
  for (const row of webhooks) holdings.get(row.key_id!)!.webhooks = Number(row.count);
  for (const row of hooks) holdings.get(row.key_id!)!.hooks = Number(row.count);
  return holdings;
}

/**
 * Whether the user has a legacy key of this name, read to decide whether a new one may take it: the
 * user's row is held until commit (storage/locks.ts), so a concurrent twin cannot take the name meanwhile.
 */
export async function legacyKeyNameTaken(tx: Executor, userId: string, name: string): Promise<boolean> {
  await lockUser(tx, userId);
  const taken = await tx
    .selectFrom('api_keys')
    .select('id')
    .where('user_id', '=', userId)
    .where('type', '=', 'legacy')
    .where('name', '=', name)
    .executeTakeFirst();
  return taken !== undefined;
}

export async function insertApiKey(tx: Executor, row: ApiKeysTable): Promise<void> {
  await tx.insertInto('api_keys').values(row).execute();
}

/** Deletes the user's key; false if the user has no key of this id. */
export async function deleteUserKey(tx: Executor, userId: string, keyId: string): Promise<boolean> {
  const deleted = await tx
    .deleteFrom('api_keys')
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
