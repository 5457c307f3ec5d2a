// Migration 011: attempts log the receiver's answer. Attempts logged before it keep what they had and
// read with no answer (null), and the deliveries of one event to one subscription are found by index.
// Runs on SQLite and, in the PostgreSQL project, on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { getDelivery } from '../src/domain/webhooks.ts';
import { migrateBefore, olderDatabase, onPostgres } from './helpers/database.ts';

const work = mkdtempSync(join(tmpdir(), 'threadwork-migration-011-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('keeps the attempts an older database logged, with no answer, and indexes deliveries by event', async () => {
  const { db: old, open } = await olderDatabase(work);
  await migrateBefore(old, onPostgres ? 'postgres' : 'sqlite', '011');
  const at = '2026-01-05T10:00:00.000Z';
  await old
    .insertInto('webhook_deliveries')
    .values({
      id: 'dlv_old',
      kind: 'v2',
      subscription_id: 'wh_old',
      event_id: 'evt_old',
      event_type: 'task.created',
      manual: 0,
      status: 'delivered',
      in_flight: 0,
      attempt_count: 1,
      next_attempt_at: null,
      created_at: at,
    })
    .execute();
  await old
    .insertInto('webhook_delivery_attempts')
    .values({
      delivery_id: 'dlv_old',
      number: 1,
      attempted_at: at,
      outcome: 'succeeded',
      status_code: 200,
      duration_ms: 12.5,
      error: null,
    })
    .execute();
  await old.destroy();

  const handle = await openDatabase(open);
  try {
    const delivery = await getDelivery(handle.db, 'dlv_old');
    expect(delivery.attempts).toEqual([
      {
        attempted_at: at,
        outcome: 'succeeded',
        status_code: 200,
        duration_ms: 12.5,
        error: null,
        response_content_type: null,
        response_body: null,
      },
    ]);
    const indexes = onPostgres
      ? await sql<{ definition: string }>`
          select indexdef as definition from pg_indexes where indexname = 'webhook_deliveries_event'
        `.execute(handle.db)
      : await sql<{ definition: string }>`
          select sql as definition from sqlite_master where name = 'webhook_deliveries_event'
        `.execute(handle.db);
    expect(indexes.rows.map((row) => row.definition)).toEqual([
      expect.stringMatching(/\(\s*"?event_id"?\s*,\s*"?subscription_id"?\s*\)$/),
    ]);
  } finally {
    await handle.close();
  }
});
