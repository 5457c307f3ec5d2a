// API keys (the extension's API tab): list, create, revoke. A key's secret is answered once, at
// creation, and stored only as its sha256. Every write goes through `changeCredentials`, so a revoked
// key, and every v1 session token minted from it, stops authenticating with the next request.
import {
  type ApiKey,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  DEFAULT_SCOPES,
  type Deleted,
} from '@threadwork/shared/schemas';
import type { Kysely } from 'kysely';
import { type Executor, transact } from '../db/database.ts';
import type { ApiKeysTable, Database } from '../db/schema.ts';
import { invalidField, notFound } from './errors.ts';
import { publishChanges } from './events/feed.ts';
import { newId } from './ids.ts';
import { type Page, type PageRequest, paginate } from './pagination.ts';
import { changeCredentials } from './principal-cache.ts';
import { hashSecret, newSecret } from './secrets.ts';

/** v2 bearer secrets, and the two halves of a legacy key, each recognisable by its prefix. */
const V2_SECRET_PREFIX = 'tw_live_';
const LEGACY_KEY_PREFIX = 'twk_';
const LEGACY_SECRET_PREFIX = 'tws_';

/** A listed key: never its secret. A legacy key's scopes are those its session tokens carry. */
function present(row: ApiKeysTable): ApiKey {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    scopes: row.type === 'legacy' ? [...DEFAULT_SCOPES] : (JSON.parse(row.scopes) as string[]),
    api_key: row.api_key,
    created_at: row.created_at,
  };
}

export async function listApiKeys(db: Executor, userId: string, page: PageRequest): Promise<Page<ApiKey>> {
  const result = await paginate(
    page,
    ['created_at', 'id'],
    (after, take) => {
      let query = db.selectFrom('api_keys').selectAll().where('user_id', '=', userId);
      if (after) query = query.where(after);
      return query.orderBy('created_at').orderBy('id').limit(take).execute();
    },
    (row) => [row.created_at, row.id],
  );
  return { items: result.items.map(present), pagination: result.pagination };
}

/**
 * A v2 key with the scopes asked for (every non-opt-in scope when none are), or a legacy key+secret
 * pair, which the token endpoint finds by its name: a user's legacy key names are unique.
 */
export async function createApiKey(
  db: Kysely<Database>,
  userId: string,
  input: CreateApiKeyRequest,
  now: Date,
): Promise<CreatedApiKey> {
  if (input.type === 'legacy' && input.scopes !== undefined) {
    throw invalidField('scopes', 'a legacy key carries no scopes: its session tokens get the default scopes');
  }
  const secret = newSecret(input.type === 'legacy' ? LEGACY_SECRET_PREFIX : V2_SECRET_PREFIX);
  const row: ApiKeysTable = {
    id: newId('key'),
    user_id: userId,
    type: input.type,
    name: input.name,
    api_key: input.type === 'legacy' ? newSecret(LEGACY_KEY_PREFIX, 12) : null,
    secret_hash: hashSecret(secret),
    scopes: JSON.stringify(input.type === 'legacy' ? [] : [...new Set(input.scopes ?? DEFAULT_SCOPES)]),
    created_at: now.toISOString(),
    last_used_at: null,
  };
  await changeCredentials(db, () =>
    transact(db, async (tx) => {
      if (input.type === 'legacy') {
        const taken = await tx
          .selectFrom('api_keys')
          .select('id')
          .where('user_id', '=', userId)
          .where('type', '=', 'legacy')
          .where('name', '=', input.name)
          .executeTakeFirst();
        if (taken) throw invalidField('name', `a legacy key named "${input.name}" already exists`);
      }
      await tx.insertInto('api_keys').values(row).execute();
    }),
  );
  publishChanges(db, [{ topic: 'keys' }]);
  return input.type === 'legacy' ? { ...present(row), api_secret: secret } : { ...present(row), secret };
}

/** Deletes one of the user's keys; 404 for a key of anyone else. */
export async function revokeApiKey(db: Kysely<Database>, userId: string, keyId: string): Promise<Deleted> {
  const deleted = await changeCredentials(db, () =>
    db.deleteFrom('api_keys').where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst(),
  );
  if (deleted.numDeletedRows === 0n) throw notFound('API key', keyId);
  publishChanges(db, [{ topic: 'keys' }]);
  return { id: keyId, deleted: true };
}
