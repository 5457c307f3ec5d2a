// Revoking a key beside a subscription being made with it, on PostgreSQL (runs in the
// reference-server-postgres project only). The revoke deletes the key's row first and then stops what the
// key owns; a subscription or hook being made holds the key's row (FOR KEY SHARE) until it commits. So
// whichever comes second waits for the first, and no subscription outlives its key (docs/postgresql.md).
// Each test plays one side by hand in a transaction of its own, holding it open while the other runs.
import { type ControlledTransaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { WRITE_LOCK } from '../../src/db/transaction.ts';
import type { RunningServer } from '../../src/index.ts';
import { readAnswer, readBody, startRunningTestServer, type TestServer } from '../helpers/server.ts';
import { settlesWithin } from '../webhooks-support.ts';

let running: RunningServer;
let server: TestServer;
beforeAll(async () => {
  ({ running, server } = await startRunningTestServer({ allowInsecureWebhooks: true }));
});
afterAll(() => server.close());

let names = 0;
async function newKey(type: 'v2' | 'legacy') {
  const name = `racing ${++names}`;
  const created = await readAnswer(await server.v2('/api-keys', { method: 'POST', body: { name, type } }));
  expect(created.status).toBe(200);
  const key = created.body.data as { id: string; secret?: string; api_key?: string; api_secret?: string };
  if (type === 'v2') return { id: key.id, credential: { key: key.secret! } };
  const exchanged = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'ada@example.com',
      api_key: key.api_key,
      api_secret: key.api_secret,
      api_key_name: name,
    }),
  });
  return { id: key.id, credential: { token: (await readBody(exchanged))['x-access-token'] as string } };
}

/** A write transaction of our own, holding the shared write lock as every row-locking write does. */
async function writeTransaction(): Promise<ControlledTransaction<Database>> {
  const holder = await running.app.ctx.db.startTransaction().execute();
  await sql`select pg_advisory_xact_lock_shared(${sql.lit(WRITE_LOCK)})`.execute(holder);
  return holder;
}

const ownedBy = async (keyId: string) =>
  running.app.ctx.db
    .selectFrom('webhook_subscriptions')
    .select(['status', 'disabled_reason'])
    .where('key_id', '=', keyId)
    .execute();

describe('a key revoked while something is subscribed with it', () => {
  it('a subscription or hook being made waits for the revoke under way, then is refused', async () => {
    const [v2, legacy] = [await newKey('v2'), await newKey('legacy')];
    // Each key authenticates once, so the requests below come from a known principal, as a Zap's do.
    for (const key of [v2, legacy]) expect((await server.v2('/me', key.credential)).status).toBe(200);
    // A revoke under way: it has deleted both keys' rows and not yet committed.
    const revoke = await writeTransaction();
    try {
      await revoke.deleteFrom('api_keys').where('id', 'in', [v2.id, legacy.id]).execute();
      const making = Promise.all([
        server
          .v2('/webhooks/subscriptions', {
            method: 'POST',
            body: { target_url: 'http://127.0.0.1:9/in', events: ['task.created'] },
            ...v2.credential,
          })
          .then(readAnswer),
        server
          .v1('/items/subscribe', {
            method: 'POST',
            token: legacy.credential.token!,
            body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: 'http://127.0.0.1:9/in' },
          })
          .then(readAnswer),
      ]);
      expect(await settlesWithin(making, 300)).toBe(false);
      await revoke.commit().execute();
      const answers = await making;
      expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual([
        [401, 'unauthenticated'],
        [401, 'unauthenticated'],
      ]);
    } finally {
      if (!revoke.isCommitted) await revoke.rollback().execute();
    }
    expect(await ownedBy(v2.id)).toEqual([]);
    const hooks = await running.app.ctx.db
      .selectFrom('v1_hook_subscriptions')
      .select('id')
      .where('key_id', '=', legacy.id)
      .execute();
    expect(hooks).toEqual([]);
  });

  it('the revoke waits for a subscription being made with the key, then disables it too', async () => {
    const key = await newKey('v2');
    // A subscription being made with the key: it holds the key's row and has written, not committed.
    const making = await writeTransaction();
    try {
      await making.selectFrom('api_keys').select('id').where('id', '=', key.id).forKeyShare().execute();
      await making
        .insertInto('webhook_subscriptions')
        .values({
          id: `wh_racing_${names}`,
          user_id: 'usr_ada',
          key_id: key.id,
          target_url: 'http://127.0.0.1:9/in',
          events: '["task.created"]',
          filters: '{"scope":"tasked"}',
          status: 'active',
          disabled_reason: null,
          secrets: '[]',
          failing_since: null,
          created_at: new Date().toISOString(),
        })
        .execute();
      const revoke = server.v2(`/api-keys/${key.id}`, { method: 'DELETE' }).then(readAnswer);
      expect(await settlesWithin(revoke, 300)).toBe(false);
      await making.commit().execute();
      const revoked = await revoke;
      expect(revoked.status).toBe(200);
      expect(revoked.body.data).toMatchObject({ webhooks_disabled: 1, hooks_deleted: 0 });
    } finally {
      if (!making.isCommitted) await making.rollback().execute();
    }
    expect(await ownedBy(key.id)).toEqual([{ status: 'disabled', disabled_reason: 'key_revoked' }]);
  });
});
