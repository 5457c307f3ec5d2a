// A database written before migration 007 keeps what its keys could do: a legacy key stored no scopes
// then, and its session tokens held every non-opt-in scope, so it holds exactly those afterwards. Runs on
// SQLite and, in the PostgreSQL project, on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCOPES } from '@threadwork/shared/schemas';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { migrateBefore, olderDatabase, onPostgres } from './helpers/database.ts';

const work = mkdtempSync(join(tmpdir(), 'threadwork-migration-007-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('gives each legacy key of an older database the scopes its tokens held, and leaves v2 keys be', async () => {
  const { db: old, open } = await olderDatabase(work);
  await migrateBefore(old, onPostgres ? 'postgres' : 'sqlite', '007');
  await old
    .insertInto('users')
    .values({
      id: 'usr_ada',
      email: 'ada@example.com',
      display_name: null,
      created_at: '2026-01-01T00:00:00Z',
    })
    .execute();
  const key = (id: string, type: string, scopes: string[]) => ({
    id,
    user_id: 'usr_ada',
    type,
    name: id,
    api_key: type === 'legacy' ? `${id}public` : null,
    secret_hash: `${id}hash`,
    scopes: JSON.stringify(scopes),
    created_at: '2026-01-01T00:00:00Z',
    last_used_at: null,
  });
  await old
    .insertInto('api_keys')
    .values([key('legacy', 'legacy', []), key('narrow', 'v2', ['boards.read']), key('empty', 'v2', [])])
    .execute();
  await old.destroy();

  const handle = await openDatabase(open);
  try {
    const rows = await handle.db.selectFrom('api_keys').select(['id', 'scopes']).orderBy('id').execute();
    expect(rows.map((row) => [row.id, JSON.parse(row.scopes)])).toEqual([
      ['empty', []],
      ['legacy', [...DEFAULT_SCOPES]],
      ['narrow', ['boards.read']],
    ]);
  } finally {
    await handle.close();
  }
});
