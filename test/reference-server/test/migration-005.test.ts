// A database written before migration 005 keeps its mail: threads get their search sort key from
// their messages' dates, and search over them answers newest first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateBefore } from './helpers/database.ts';

const work = mkdtempSync(join(tmpdir(), 'threadwork-migration-005-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('backfills each thread’s latest message time', async () => {
  const path = join(work, 'old.db');
  const old = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: new SqliteDialect({ database: new SqliteDatabase(path) }),
  });
  await migrateBefore(old, 'sqlite', '005');
  await old
    .insertInto('users')
    .values({
      id: 'usr_ada',
      email: 'ada@example.com',
      display_name: null,
      created_at: '2026-01-01T00:00:00Z',
    })
    .execute();
  await old
    .insertInto('mailboxes')
    .values({
      id: 'mbx_1',
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      state: 'connected',
      created_at: '2026-01-01T00:00:00Z',
    })
    .execute();
  const threads = ['18c0000000000001', '18c0000000000002', '18c0000000000003'];
  await old
    .insertInto('threads')
    .values(threads.map((id) => ({ mailbox_id: 'mbx_1', id, created_at: '2026-01-01T00:00:00Z' })))
    .execute();
  const message = (thread: string, id: string, date: string | null) => ({
    mailbox_id: 'mbx_1',
    id,
    thread_id: thread,
    subject: 'old mail',
    from_email: 'bob@example.com',
    from_name: null,
    to: '[]',
    cc: '[]',
    date,
  });
  await old
    .insertInto('messages')
    .values([
      message(threads[0] as string, threads[0] as string, '2026-01-02T00:00:00Z'),
      message(threads[0] as string, '18c00000000000a1', '2026-01-05T10:00:00+02:00'),
      message(threads[1] as string, threads[1] as string, '2026-01-04T00:00:00Z'),
      message(threads[2] as string, threads[2] as string, null),
    ])
    .execute();
  await old.destroy();

  const handle = await openDatabase({ path });
  try {
    const rows = await handle.db.selectFrom('threads').select(['id', 'latest_ms']).orderBy('id').execute();
    expect(rows.map((row) => [row.id, Number(row.latest_ms)])).toEqual([
      [threads[0], Date.parse('2026-01-05T08:00:00Z')],
      [threads[1], Date.parse('2026-01-04T00:00:00Z')],
      [threads[2], -1],
    ]);
  } finally {
    await handle.close();
  }
});
