import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../schema.ts';

type AnyDatabase = Kysely<Record<string, never>>;

// Keys own what they subscribe (docs/webhooks.md, "Keys own what they subscribe"): v2 subscriptions and
// v1 hooks name the key they belong to, and revoking that key stops them. Existing ones get the key that
// made them where the database knows it, else the user's oldest key (see `knownOwners`).
export function keyOwnershipMigration(): Migration {
  return {
    async up(anyDb: AnyDatabase) {
      const db = anyDb as unknown as Kysely<Database>;
      await db.schema.alterTable('webhook_subscriptions').addColumn('key_id', 'text').execute();
      await db.schema.alterTable('v1_hook_subscriptions').addColumn('key_id', 'text').execute();
      // A revoke finds a key's subscriptions, the key listing counts its active ones.
      await db.schema
        .createIndex('webhook_subscriptions_key')
        .on('webhook_subscriptions')
        .columns(['key_id', 'status'])
        .execute();
      await db.schema
        .createIndex('v1_hook_subscriptions_key')
        .on('v1_hook_subscriptions')
        .column('key_id')
        .execute();
      await assignOwners(db);
    },
  };
}

type Kind = 'v2' | 'v1';
const TABLES = { v2: 'webhook_subscriptions', v1: 'v1_hook_subscriptions' } as const;
/** Rows updated per statement. */
const CHUNK = 500;

async function assignOwners(db: Kysely<Database>): Promise<void> {
  const owners = await knownOwners(db);
  for (const kind of ['v2', 'v1'] as const) {
    const rows = await db.selectFrom(TABLES[kind]).select(['id', 'user_id']).execute();
    const byOwner = new Map<string, string[]>();
    for (const row of rows) {
      const owner = owners.of(kind, row.id, row.user_id);
      if (owner === null) continue;
      const ids = byOwner.get(owner);
      if (ids) ids.push(row.id);
      else byOwner.set(owner, [row.id]);
    }
    for (const [keyId, ids] of byOwner) {
      for (let start = 0; start < ids.length; start += CHUNK) {
        await db
          .updateTable(TABLES[kind])
          .set({ key_id: keyId })
          .where('id', 'in', ids.slice(start, start + CHUNK))
          .execute();
      }
    }
  }
}

/**
 * Who made each subscription, where the database knows it, and the fallback. A subscription or hook
 * created with an Idempotency-Key left its answer under the credential that made it (`key:<id>`) for
 * 24 hours: that key made it. Any other goes to its user's oldest key (for a v1 hook, the oldest legacy
 * key, the only kind whose tokens make hooks), since that key most likely existed when it was made; a
 * user with no key keeps it keyless, as one made in the console. A known maker that has been revoked
 * since is no longer a key that revoking could reach, so the fallback applies to its subscriptions too.
 */
async function knownOwners(db: Kysely<Database>) {
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'type'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const keyById = new Map(keys.map((key) => [key.id, key]));
  const oldest = new Map<string, string>();
  const oldestLegacy = new Map<string, string>();
  for (const key of keys) {
    if (!oldest.has(key.user_id)) oldest.set(key.user_id, key.id);
    if (key.type === 'legacy' && !oldestLegacy.has(key.user_id)) oldestLegacy.set(key.user_id, key.id);
  }

  const makers = { v2: new Map<string, string>(), v1: new Map<string, string>() };
  const answers = await db
    .selectFrom('idempotency_keys')
    .select(['credential', 'response_body'])
    .where('credential', 'like', 'key:%')
    .where('status_code', '=', 200)
    .where((eb) =>
      eb.or([eb('response_body', 'like', '%"webhookURL":%'), eb('response_body', 'like', '%"secret":%')]),
    )
    .execute();
  for (const answer of answers) {
    const made = subscriptionCreatedBy(answer.response_body);
    if (made) makers[made.kind].set(made.id, answer.credential.slice('key:'.length));
  }

  return {
    of(kind: Kind, subscriptionId: string, userId: string): string | null {
      const maker = keyById.get(makers[kind].get(subscriptionId) ?? '');
      if (maker && maker.user_id === userId && (kind === 'v2' || maker.type === 'legacy')) return maker.id;
      return (kind === 'v1' ? oldestLegacy.get(userId) : undefined) ?? oldest.get(userId) ?? null;
    },
  };
}

/**
 * The subscription a stored answer created: a v2 creation answers the subscription with its signing
 * secret (`data.secret` beside `data.target_url`; a rotation's answer has no target_url, an update's no
 * secret), a v1 subscribe the Subscription (`action`, `webhookURL`). Any other answer: null.
 */
function subscriptionCreatedBy(body: string): { kind: Kind; id: string } | null {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof answer !== 'object' || answer === null) return null;
  const record = answer as Record<string, unknown>;
  const data = record['data'] as Record<string, unknown> | null | undefined;
  if (
    typeof data === 'object' &&
    data !== null &&
    typeof data['id'] === 'string' &&
    typeof data['secret'] === 'string' &&
    typeof data['target_url'] === 'string'
  ) {
    return { kind: 'v2', id: data['id'] };
  }
  if (
    typeof record['id'] === 'string' &&
    typeof record['action'] === 'string' &&
    typeof record['webhookURL'] === 'string'
  ) {
    return { kind: 'v1', id: record['id'] };
  }
  return null;
}
