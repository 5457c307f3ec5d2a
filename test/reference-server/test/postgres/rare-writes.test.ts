// The rare writes on PostgreSQL (runs in the reference-server-postgres project only): each locks the one
// row it reads to decide (docs/postgresql.md, "Writes"), so a write on another board runs while a
// transaction holds a board, and writes that race for one board, one name or one default company give
// the answers they would give one after another, never a 500.
import { type ControlledTransaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { WRITE_LOCK } from '../../src/db/transaction.ts';
import type { RunningServer } from '../../src/index.ts';
import { type Answer, readAnswer, startRunningTestServer, type TestServer } from '../helpers/server.ts';
import { settlesWithin } from '../webhooks-support.ts';

let running: RunningServer;
let server: TestServer;
/** A second board of the same team, made through the API. */
let otherBoard: string;

beforeAll(async () => {
  ({ running, server } = await startRunningTestServer({ allowInsecureWebhooks: true }));
  const board = await post('/boards', { team_id: 'team_acme', name: 'Second board' });
  expect(board.status).toBe(200);
  otherBoard = board.body.data.id;
});
afterAll(() => server.close());

const post = async (path: string, body: unknown) =>
  readAnswer(await server.v2(path, { method: 'POST', body }));

/**
 * A transaction that holds the board's row, as a list's creation on it does until it commits, and the
 * write lock shared, as every row-locking write does: a write that ran alone would wait for it.
 */
async function holdBoard(boardId: string): Promise<ControlledTransaction<Database>> {
  const holder = await running.app.ctx.db.startTransaction().execute();
  await sql`select pg_advisory_xact_lock_shared(${sql.lit(WRITE_LOCK)})`.execute(holder);
  await sql`select id from boards where id = ${boardId} for update`.execute(holder);
  return holder;
}

describe('the rare writes on PostgreSQL', () => {
  it('run beside a transaction holding another board, and queue behind one holding theirs', async () => {
    const holder = await holdBoard('brd_acme');
    try {
      // On the held board: they wait for the holder.
      const held = Promise.all([
        post('/boards/brd_acme/lists', { name: 'Waits' }),
        post('/boards/brd_acme/custom-fields', { name: 'Waits too', type: 'text' }),
      ]);
      // Elsewhere, meanwhile, answered at once: the other board, and writes that lock no board.
      const elsewhere = Promise.all([
        post(`/boards/${otherBoard}/lists`, { name: 'At once' }),
        post(`/boards/${otherBoard}/custom-fields`, { name: 'At once too', type: 'text' }),
        post('/webhooks/subscriptions', { target_url: 'http://localhost:9/in', events: ['task.created'] }),
        post('/contacts', { team_id: 'team_acme', name: 'Ivy', company_name: 'Beside Co' }),
        post('/api-keys', { name: 'Beside', type: 'legacy' }),
        server.v2('/lists/lst_done', { method: 'PATCH', body: { name: 'Finished' } }).then(readAnswer),
      ]);
      expect(await settlesWithin(elsewhere, 5000)).toBe(true);
      expect((await elsewhere).map((answer) => answer.status)).toEqual(Array(6).fill(200));
      expect(await settlesWithin(held, 300)).toBe(false);

      await holder.commit().execute();
      const [list, field] = await held;
      expect([list.status, field.status]).toEqual([200, 200]);
      // Read under the lock, after the holder: the board's last place.
      const shown = await readAnswer(await server.v2('/boards/brd_acme/lists'));
      expect((shown.body.data as { id: string }[]).at(-1)?.id).toBe(list.body.data.id);
    } finally {
      if (!holder.isCommitted) await holder.rollback().execute();
    }
  });

  it('give many lists and fields made at once on one board positions of their own, with no 500', async () => {
    const created = await post('/boards', { team_id: 'team_acme', name: 'Busy board' });
    const board = created.body.data.id as string;
    const count = 12;
    const [lists, fields] = await Promise.all([
      Promise.all(
        Array.from({ length: count }, (_, index) => post(`/boards/${board}/lists`, { name: `L${index}` })),
      ),
      Promise.all(
        Array.from({ length: count }, (_, index) =>
          post(`/boards/${board}/custom-fields`, { name: `F${index}`, type: 'text' }),
        ),
      ),
    ]);
    expect([...lists, ...fields].map((answer) => answer.status)).toEqual(Array(2 * count).fill(200));
    // Each at a position of its own, in the order they took the board's lock.
    const db = running.app.ctx.db;
    const placed = async (table: 'lists' | 'custom_fields') =>
      (
        await sql<{
          position: number;
        }>`select position from ${sql.table(table)} where board_id = ${board}`.execute(db)
      ).rows.map((row) => Number(row.position));
    const all = Array.from({ length: count }, (_, index) => index);
    expect((await placed('lists')).sort((a, b) => a - b)).toEqual(all);
    expect((await placed('custom_fields')).sort((a, b) => a - b)).toEqual(all);
    const listed = await readAnswer(await server.v2(`/boards/${board}/lists?limit=100`));
    expect((listed.body.data as { name: string }[]).map((list) => list.name).sort()).toEqual(
      all.map((index) => `L${index}`).sort(),
    );
    const shown = await readAnswer(await server.v2(`/boards/${board}/custom-fields?limit=100`));
    expect((shown.body.data as { name: string }[]).map((field) => field.name).sort()).toEqual(
      all.map((index) => `F${index}`).sort(),
    );
  });

  it('make both of two custom fields of one name at once, as one after another would', async () => {
    // Custom field names are not unique (on SQLite neither): both are made, each at a position of its own.
    const twins = await Promise.all([
      post(`/boards/${otherBoard}/custom-fields`, { name: 'Same name', type: 'text' }),
      post(`/boards/${otherBoard}/custom-fields`, { name: 'Same name', type: 'text' }),
    ]);
    expect(twins.map((answer) => answer.status)).toEqual([200, 200]);
    expect(twins[0]!.body.data.id).not.toBe(twins[1]!.body.data.id);
  });

  it('make one legacy key of a name when several race for it, and tell the others why not', async () => {
    // A legacy key's name is unique per user.
    const keys = await Promise.all(
      Array.from({ length: 6 }, () => post('/api-keys', { name: 'Racing', type: 'legacy' })),
    );
    expect(keys.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    for (const refused of keys.filter((answer) => answer.status === 400)) {
      expect(refused.body.error.code).toBe('validation_error');
      expect(JSON.stringify(refused.body.error)).toContain('a legacy key named \\"Racing\\" already exists');
    }
  });

  it('make a contact’s company once when several contacts race to make it', async () => {
    // Contacts without a company join the team's one default company, made once (a unique index
    // would answer 500 for a second one); contacts naming a company find the one made first.
    const contacts = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        post('/contacts', { team_id: 'team_acme', name: `Racer ${index}`, company_name: 'Racers Inc' }),
      ).concat(
        Array.from({ length: 6 }, (_, index) =>
          post('/contacts', { team_id: 'team_acme', name: `Jo ${index}` }),
        ),
      ),
    );
    expect(contacts.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const companyOf = (answer: Answer) => answer.body.data.company.id as string;
    expect(new Set(contacts.slice(0, 6).map(companyOf)).size).toBe(1);
    expect(new Set(contacts.slice(6).map(companyOf)).size).toBe(1);
  });
  it('keep every secret of rotations made at once, and delete a subscription once', async () => {
    const created = await post('/webhooks/subscriptions', {
      target_url: 'http://localhost:9/rotated',
      events: ['task.created'],
    });
    const { id, secret } = created.body.data as { id: string; secret: string };
    // Each rotation reads the secrets as the one before left them (under the subscription's lock).
    const rotations = await Promise.all(
      Array.from({ length: 5 }, () => post(`/webhooks/subscriptions/${id}/rotate-secret`, {})),
    );
    expect(rotations.map((answer) => answer.status)).toEqual(Array(5).fill(200));
    const { rows } = await sql<{ secrets: string }>`
      select secrets from webhook_subscriptions where id = ${id}`.execute(running.app.ctx.db);
    const kept = (JSON.parse(rows[0]!.secrets) as { secret: string }[]).map((entry) => entry.secret);
    expect(kept.sort()).toEqual([secret, ...rotations.map((answer) => answer.body.data.secret)].sort());

    const deletes = await Promise.all(
      Array.from({ length: 4 }, async () =>
        readAnswer(await server.v2(`/webhooks/subscriptions/${id}`, { method: 'DELETE' })),
      ),
    );
    expect(deletes.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404]);
  });
});
