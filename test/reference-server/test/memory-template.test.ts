// `--db :memory:` from the start command's template: the first start migrates and writes the template,
// later starts read it instead of migrating, and each gets a private database of its own.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadwork-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tables(handle: Awaited<ReturnType<typeof openDatabase>>): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' order by name`.execute(handle.db);
  return rows.map((row) => row.name);
}

describe('the in-memory template', () => {
  it('is written by the first start and gives later ones the same schema, each database its own', async () => {
    const template = join(dir, 'memory.sqlite');
    const first = await openDatabase({ path: ':memory:', memoryTemplate: template });
    const expected = await tables(first);
    expect(expected).toContain('tasks');
    expect(statSync(template).size).toBeGreaterThan(0);
    const written = readFileSync(template);

    const second = await openDatabase({ path: ':memory:', memoryTemplate: template });
    const third = await openDatabase({ path: ':memory:', memoryTemplate: template });
    expect(await tables(second)).toEqual(expected);
    const migrations = sql<{ n: number }>`select count(*) as n from schema_migrations`;
    expect((await migrations.execute(second.db)).rows[0]?.n).toBe(
      (await migrations.execute(first.db)).rows[0]?.n,
    );
    // Private copies: a write to one is seen neither by another nor in the template.
    await sql`insert into users (id, email, created_at) values ('usr_x', 'x@example.com', '2026-01-01')`.execute(
      second.db,
    );
    const users = sql<{ n: number }>`select count(*) as n from users`;
    expect((await users.execute(second.db)).rows[0]?.n).toBe(1);
    expect((await users.execute(third.db)).rows[0]?.n).toBe(0);
    expect(readFileSync(template).equals(written)).toBe(true);
    await Promise.all([first.close(), second.close(), third.close()]);
  });

  it('migrates as usual when the template is unreadable, and replaces it', async () => {
    const template = join(dir, 'broken.sqlite');
    writeFileSync(template, 'not a database');
    const handle = await openDatabase({ path: ':memory:', memoryTemplate: template });
    expect(await tables(handle)).toContain('tasks');
    expect(readFileSync(template, 'utf8')).not.toBe('not a database');
    await handle.close();
    const again = await openDatabase({ path: ':memory:', memoryTemplate: template });
    expect(await tables(again)).toContain('tasks');
    await again.close();
  });
});
