// What a request's credentials are checked against (http/auth.ts, http/auth-token.ts,
// http/session-tokens.ts): an API key with its user, a legacy key by its name, and the secret session
// tokens are signed with. Keys are made and deleted by storage/api-keys.ts, through the domain; users
// are found by email in storage/users.ts.
import type { Executor } from '../db/executor.ts';

/** The server setting that holds the session tokens' signing secret (hex). */
const SIGNING_SECRET_SETTING = 'session_token_signing_secret';

/** The v2 key whose secret hashes to `digest`, with its user; undefined if none. */
export function findV2KeyByDigest(db: Executor, digest: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'users.id as user_id',
      'users.email',
      'users.display_name',
    ])
    .where('api_keys.secret_hash', '=', digest)
    .where('api_keys.type', '=', 'v2')
    .executeTakeFirst();
}

/** The user's legacy key of this id, with its user; undefined if none (revoked since, say). */
export function findUserLegacyKey(db: Executor, userId: string, keyId: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.scopes', 'users.id as user_id', 'users.email', 'users.display_name'])
    .where('api_keys.id', '=', keyId)
    .where('api_keys.user_id', '=', userId)
    .where('api_keys.type', '=', 'legacy')
    .executeTakeFirst();
}

/** The user's legacy key of this name, with what a token exchange checks; undefined if none. */
export function findLegacyKeyByName(db: Executor, userId: string, name: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'api_key', 'secret_hash'])
    .where('user_id', '=', userId)
    .where('type', '=', 'legacy')
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * The session tokens' signing secret (hex): `fresh` is stored if none is yet, so the first process to
 * start on a database chooses it and every other one (and every restart) reads the same.
 */
export async function sessionSigningSecret(db: Executor, fresh: string): Promise<string> {
  await db
    .insertInto('server_settings')
    .values({ name: SIGNING_SECRET_SETTING, value: fresh })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('name', '=', SIGNING_SECRET_SETTING)
    .executeTakeFirstOrThrow();
  return row.value;
}
