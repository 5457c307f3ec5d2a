// API keys (the extension's API tab): list, create, revoke. A key's secret is answered once, at
// creation, and stored only as its sha256. Every write goes through `changeCredentials`, so a revoked
// key, and every v1 session token minted from it, stops authenticating with the next request.
// Both kinds of key carry the scopes chosen at creation, and no key can mint a stronger one
// (docs/scopes-and-keys.md). A key owns the subscriptions made with it: revoking it stops them in the
// same transaction, and the listing counts them (docs/webhooks.md, "Keys own what they subscribe").
import {
  type ApiKey,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  DEFAULT_SCOPES,
  type KeySubscriptions,
  type RevokedApiKey,
  type Scope,
} from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { ApiKeysTable } from '../db/schema.ts';
import { transact } from '../db/transaction.ts';
import {
  deleteUserKey,
  insertApiKey,
  keyHoldings,
  legacyKeyNameTaken,
  pageUserKeys,
} from '../storage/api-keys.ts';
import { insufficientScope, invalidField, notFound } from './errors.ts';
import { publishChanges } from './events/feed.ts';
import { newId } from './ids.ts';
import type { Page, PageRequest } from './pagination.ts';
import type { Principal } from './principal.ts';
import { changeCredentials } from './principal-cache.ts';
import { hashSecret, newAlphanumericSecret, newSecret } from './secrets.ts';
import { type DomainContext, runInTransaction } from './transaction.ts';
import { deleteHooksOfKey } from './v1-hooks.ts';
import { disableSubscriptionsOfKey } from './webhooks.ts';

/** v2 bearer secrets are recognisable by their prefix; a legacy key's two halves are plain alphanumeric. */
const V2_SECRET_PREFIX = 'tw_live_';
/** Lengths of a legacy key's halves: 24 and 40 characters of [0-9A-Za-z], about 142 and 238 bits. */
const LEGACY_KEY_LENGTH = 24;
const LEGACY_SECRET_LENGTH = 40;

const NOTHING_HELD: KeySubscriptions = { webhooks: 0, hooks: 0 };

/** A listed key: never its secret. A legacy key's scopes are those its session tokens carry. */
function present(row: ApiKeysTable, subscriptions: KeySubscriptions = NOTHING_HELD): ApiKey {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    api_key: row.api_key,
    created_at: row.created_at,
    subscriptions,
  };
}

export async function listApiKeys(db: Executor, userId: string, page: PageRequest): Promise<Page<ApiKey>> {
  const result = await pageUserKeys(db, userId, page);
  const holdings = await keyHoldings(
    db,
    result.items.map((row) => row.id),
  );
  return {
    items: result.items.map((row) => present(row, holdings.get(row.id))),
    pagination: result.pagination,
  };
}

/** The scopes a new key holds: the ones named (in the order given), else every non-opt-in scope. */
function scopesToGrant(requested: readonly Scope[] | undefined): Scope[] {
  return [...new Set(requested ?? DEFAULT_SCOPES)];
}

/** A principal grants only scopes it holds: 403 insufficient_scope naming the first one it lacks. */
function assertMayGrant(grantor: Pick<Principal, 'scopes'>, scopes: readonly Scope[]): void {
  const lacking = scopes.find((scope) => !grantor.scopes.has(scope));
  if (lacking !== undefined) {
    throw insufficientScope(
      [lacking],
      `cannot grant the scope ${lacking}: the credentials used do not hold it`,
    );
  }
}

/**
 * A v2 key, or a legacy key+secret pair (which the token endpoint finds by its name: a user's legacy key
 * names are unique), holding the scopes asked for, or every non-opt-in scope when none are; never a
 * scope the caller does not hold itself.
 */
export async function createApiKey(
  ctx: Pick<DomainContext, 'db' | 'deferred'>,
  grantor: Pick<Principal, 'userId' | 'scopes'>,
  input: CreateApiKeyRequest,
  now: Date,
): Promise<CreatedApiKey> {
  const scopes = scopesToGrant(input.scopes);
  assertMayGrant(grantor, scopes);
  const userId = grantor.userId;
  const secret =
    input.type === 'legacy' ? newAlphanumericSecret(LEGACY_SECRET_LENGTH) : newSecret(V2_SECRET_PREFIX);
  const row: ApiKeysTable = {
    id: newId('key'),
    user_id: userId,
    type: input.type,
    name: input.name,
    api_key: input.type === 'legacy' ? newAlphanumericSecret(LEGACY_KEY_LENGTH) : null,
    secret_hash: hashSecret(secret),
    scopes: JSON.stringify(scopes),
    created_at: now.toISOString(),
    last_used_at: null,
  };
  const { db, deferred } = ctx;
  const insert = () =>
    transact(
      db,
      async (tx) => {
        if (input.type === 'legacy' && (await legacyKeyNameTaken(tx, userId, input.name))) {
          throw invalidField('name', `a legacy key named "${input.name}" already exists`);
        }
        await insertApiKey(tx, row);
      },
      'rows',
      deferred,
    );
  await changeCredentials(db, insert, deferred);
  publishChanges(db, [{ topic: 'keys' }]);
  return input.type === 'legacy' ? { ...present(row), api_secret: secret } : { ...present(row), secret };
}

/**
 * Deletes one of the user's keys (404 for a key of anyone else) and, in the same transaction, stops what
 * it owns: its v2 subscriptions are disabled (`key_revoked`), its v1 hooks deleted. The key's row goes
 * first: a subscription being made with the key holds that row (`holdKey`), so the revocation waits for
 * it and then disables it too, or it waits for the revocation and is refused.
 */
export async function revokeApiKey(
  ctx: DomainContext,
  userId: string,
  keyId: string,
): Promise<RevokedApiKey> {
  const { db, deferred } = ctx;
  const revoke = () =>
    runInTransaction(
      ctx,
      async (tx) => {
        if (!(await deleteUserKey(tx, userId, keyId))) throw notFound('API key', keyId);
        const webhooks = await disableSubscriptionsOfKey(tx, keyId);
        const hooks = await deleteHooksOfKey(tx, keyId);
        return { webhooks_disabled: webhooks, hooks_deleted: hooks };
      },
      'rows',
    );
  const revoked = await changeCredentials(db, revoke, deferred);
  publishChanges(db, [{ topic: 'keys' }]);
  return { id: keyId, deleted: true, ...revoked };
}
