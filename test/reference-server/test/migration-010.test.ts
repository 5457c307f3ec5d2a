// A database written before migration 010 gives each webhook subscription and v1 hook an owning key: the
// key that made it where the database knows it (the creation's answer kept under its Idempotency-Key,
// for the credential that sent it), else the user's oldest key (the oldest legacy key for a hook), else
// none. Runs on SQLite and, in the PostgreSQL project, on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { createPostgresDatabase, migrateBefore, onPostgres } from './helpers/database.ts';

const work = mkdtempSync(join(tmpdir(), 'threadwork-migration-010-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

async function oldDatabase(): Promise<{ db: AnyDb; open: { path: string; databaseUrl?: string } }> {
  if (onPostgres) {
    const { default: pg } = await import('pg');
    const databaseUrl = await createPostgresDatabase();
    const db: AnyDb = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
    });
    return { db, open: { path: ':memory:', databaseUrl } };
  }
  const path = join(work, 'old.db');
  return {
    db: new Kysely({ dialect: new SqliteDialect({ database: new SqliteDatabase(path) }) }),
    open: { path },
  };
}

const day = (n: number) => `2026-01-0${n}T00:00:00.000Z`;

const user = (id: string) => ({ id, email: `${id}@example.com`, display_name: null, created_at: day(1) });
const key = (id: string, userId: string, type: 'v2' | 'legacy', created: number) => ({
  id,
  user_id: userId,
  type,
  name: id,
  api_key: type === 'legacy' ? `${id}public` : null,
  secret_hash: `${id}hash`,
  scopes: '[]',
  created_at: day(created),
  last_used_at: null,
});
const subscription = (id: string, userId: string) => ({
  id,
  user_id: userId,
  target_url: `https://example.com/${id}`,
  events: '["task.created"]',
  filters: '{"scope":"tasked"}',
  status: 'active',
  disabled_reason: null,
  secrets: '[{"secret":"whsec_x","expires_at":null}]',
  failing_since: null,
  created_at: day(5),
});
const hook = (id: string, userId: string) => ({
  id,
  user_id: userId,
  action: 'createOnBoard',
  entity_id: 'brd_acme',
  webhook_url: `https://example.com/${id}`,
  api_service: 'zapier',
  failing_since: null,
  created_at: day(5),
});
/** An answer kept under an Idempotency-Key, as the server stores it: the JSON text it answered. */
const answer = (credentialKey: string, idempotencyKey: string, body: unknown) => ({
  credential: `key:${credentialKey}`,
  key: idempotencyKey,
  fingerprint: `${idempotencyKey}fingerprint`,
  status_code: 200,
  response_body: JSON.stringify(body),
  created_at: day(5),
  expires_at: day(6),
});
const meta = { request_id: 'req_1' };
/** What POST /v2/webhooks/subscriptions answered: the subscription with its secret, shown once. */
const created = (id: string) => ({
  data: {
    id,
    target_url: `https://example.com/${id}`,
    events: ['task.created'],
    status: 'active',
    filters: { scope: 'tasked' },
    created_at: day(5),
    disabled_reason: null,
    secret: 'whsec_new',
  },
  meta,
});
const subscribed = (id: string) => ({
  id,
  action: 'createOnBoard',
  entityId: 'brd_acme',
  webhookURL: `https://example.com/${id}`,
  apiService: 'zapier',
});

it('gives each subscription and hook the key that made it where known, else the user’s oldest key', async () => {
  const { db: old, open } = await oldDatabase();
  await migrateBefore(old, onPostgres ? 'postgres' : 'sqlite', '010');
  await old
    .insertInto('users')
    .values([user('usr_ada'), user('usr_bob'), user('usr_cy')])
    .execute();
  await old
    .insertInto('api_keys')
    .values([
      key('key_old', 'usr_ada', 'v2', 1),
      key('key_legacy_old', 'usr_ada', 'legacy', 2),
      key('key_zap', 'usr_ada', 'legacy', 3),
      key('key_cli', 'usr_ada', 'v2', 4),
      key('key_bob', 'usr_bob', 'v2', 1),
    ])
    .execute();
  await old
    .insertInto('webhook_subscriptions')
    .values([
      subscription('wh_known', 'usr_ada'),
      subscription('wh_rotated', 'usr_ada'),
      subscription('wh_revoked_maker', 'usr_ada'),
      subscription('wh_bob', 'usr_bob'),
      subscription('wh_cy', 'usr_cy'),
    ])
    .execute();
  await old
    .insertInto('v1_hook_subscriptions')
    .values([
      hook('aaaaaaaaaaaaaaaaaaaaaaaa', 'usr_ada'),
      hook('bbbbbbbbbbbbbbbbbbbbbbbb', 'usr_ada'),
      hook('cccccccccccccccccccccccc', 'usr_bob'),
    ])
    .execute();
  await old
    .insertInto('idempotency_keys')
    .values([
      // key_cli made wh_known; key_old only changed it afterwards (an update answers no secret).
      answer('key_cli', 'make', created('wh_known')),
      answer('key_old', 'change', { data: { ...created('wh_known').data, secret: undefined }, meta }),
      // A rotation answers a secret but no target_url: key_cli did not make wh_rotated.
      answer('key_cli', 'rotate', {
        data: { id: 'wh_rotated', secret: 'whsec_2', previous_secret_expires_at: day(6) },
        meta,
      }),
      // Made by a key that has been revoked since: no key can reach it through that one.
      answer('key_gone', 'make', created('wh_revoked_maker')),
      // key_zap's session token made the first hook.
      answer('key_zap', 'hook', subscribed('aaaaaaaaaaaaaaaaaaaaaaaa')),
      // Another user's key cannot have made ada's subscription.
      answer('key_bob', 'make', created('wh_rotated')),
    ])
    .execute();
  await old.destroy();

  const handle = await openDatabase(open);
  try {
    const owners = async (table: 'webhook_subscriptions' | 'v1_hook_subscriptions') =>
      Object.fromEntries(
        (await handle.db.selectFrom(table).select(['id', 'key_id']).execute()).map((row) => [
          row.id,
          row.key_id,
        ]),
      );
    expect(await owners('webhook_subscriptions')).toEqual({
      wh_known: 'key_cli',
      wh_rotated: 'key_old',
      wh_revoked_maker: 'key_old',
      wh_bob: 'key_bob',
      // A user with no key: it belongs to no key, as one made in the console.
      wh_cy: null,
    });
    expect(await owners('v1_hook_subscriptions')).toEqual({
      aaaaaaaaaaaaaaaaaaaaaaaa: 'key_zap',
      // Unknown maker: the user's oldest legacy key (only legacy keys' tokens make hooks).
      bbbbbbbbbbbbbbbbbbbbbbbb: 'key_legacy_old',
      // No legacy key left: the user's oldest key, so that revoking it still stops the hook.
      cccccccccccccccccccccccc: 'key_bob',
    });
  } finally {
    await handle.close();
  }
});
