// Creates at the top or bottom of one list that arrive together share one transaction on PostgreSQL
// (src/db/sessions.ts `ListGroup`; docs/postgresql.md), each in a savepoint of its own: one request's
// failure rolls back only its own work, an Idempotency-Key held twice at once still runs once, and a
// create refused (404) keeps its answer under its key as it would alone.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementCount } from '../../src/db/executor.ts';
import type { RunningServer } from '../../src/index.ts';
import { type Answer, readAnswer, startRunningTestServer, type TestServer } from '../helpers/server.ts';

let running: RunningServer;
let server: TestServer;

beforeAll(async () => {
  ({ running, server } = await startRunningTestServer());
  // Storing an answer under a key named `unstorable` fails, as a write of the request would.
  await sql`create function refuse_answer() returns trigger language plpgsql as $$
    begin raise exception 'answers under this key cannot be stored'; end $$`.execute(running.app.ctx.db);
  await sql`create trigger refuse_answer before insert or update on idempotency_keys for each row
    when (new.key like 'unstorable%' and new.status_code <> 0) execute function refuse_answer()`.execute(
    running.app.ctx.db,
  );
});
afterAll(() => server.close());

const create = (title: string, key: string, listId = 'lst_todo') =>
  server
    .v2('/tasks', { method: 'POST', body: { list_id: listId, title }, headers: { 'idempotency-key': key } })
    .then(readAnswer);

const titles = async (listId = 'lst_todo') =>
  (
    (await readAnswer(await server.v2(`/tasks?list_id=${listId}&limit=200`))).body.data as { title: string }[]
  ).map((task) => task.title);

describe('creates on one list, arriving together on PostgreSQL', () => {
  it('share a transaction, and a create whose write fails fails alone', async () => {
    const before = statementCount(running.app.ctx.db);
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, (_, index) => create(`Together ${index}`, `together-${index}`)),
      create('Never half-made', 'unstorable-1'),
    ]);
    const statements = statementCount(running.app.ctx.db) - before;
    expect(answers.slice(0, 8).map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(answers[8]!.status).toBe(500);
    const listed = await titles();
    expect(listed.filter((title) => title.startsWith('Together ')).sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `Together ${index}`),
    );
    expect(listed).not.toContain('Never half-made');
    // Alone, each costs three round trips (test/round-trips.test.ts); together, they share theirs.
    console.log(`statements for 9 creates arriving together: ${statements}`);
    expect(statements).toBeLessThan(3 * 9);
    // Each landed at a position of its own.
    const { rows } = await sql<{ n: number; positions: number }>`
      select count(*)::int as n, count(distinct position)::int as positions from tasks where list_id = 'lst_todo'`.execute(
      running.app.ctx.db,
    );
    expect(rows[0]!.positions).toBe(rows[0]!.n);
    // Every answer was stored with its change: replayed, not run again.
    const replayed = await create('Together 3', 'together-3');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data.id).toBe(answers[3]!.body.data.id);
  });

  it('run one create for one Idempotency-Key sent several times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => create('Only once here', 'same-key')));
    const made = answers.filter((answer) => answer.status === 200);
    expect(made.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) {
      if (answer.status !== 200) expect(answer.body.error.code).toBe('idempotency_in_progress');
    }
    expect(new Set(made.map((answer) => answer.body.data.id)).size).toBe(1);
    expect((await titles()).filter((title) => title === 'Only once here')).toHaveLength(1);
  });

  it('keep a refused create’s answer under its key, beside others made at once', async () => {
    const answers: Answer[] = await Promise.all([
      create('Beside a refusal 1', 'beside-1'),
      create('On a hidden list', 'hidden-1', 'lst_secret'),
      create('Beside a refusal 2', 'beside-2'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 200]);
    const again = await create('On a hidden list', 'hidden-1', 'lst_secret');
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await titles()).filter((title) => title.startsWith('Beside a refusal'))).toHaveLength(2);
  });
});
