// On PostgreSQL a keyed write's stored answer commits in the change's own transaction: if the answer
// cannot be stored, the change is not made either, the client is told 500, and a retry with the same
// key runs the request again (once). Storing is made to fail by a trigger on the answers' table.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/index.ts';
import { readAnswer, startRunningTestServer, type TestServer } from '../helpers/server.ts';

let running: RunningServer;
let server: TestServer;

beforeAll(async () => {
  ({ running, server } = await startRunningTestServer());
  const { db } = running.app.ctx;
  await sql`create function refuse_answer() returns trigger language plpgsql as $$
    begin raise exception 'answers under this key cannot be stored'; end $$`.execute(db);
  await sql`create trigger refuse_answer before insert or update on idempotency_keys for each row
    when (new.key = 'unstorable' and new.status_code <> 0) execute function refuse_answer()`.execute(db);
});
afterAll(() => server.close());

const titles = async () =>
  (
    (await readAnswer(await server.v2('/tasks?list_id=lst_todo&limit=50'))).body.data as { title: string }[]
  ).map((task) => task.title);

const create = (title: string, key: string) =>
  server.v2('/tasks', {
    method: 'POST',
    body: { list_id: 'lst_todo', title },
    headers: { 'idempotency-key': key },
  });

describe('a keyed write on PostgreSQL', () => {
  it('makes no change when its answer cannot be stored, and runs again on retry', async () => {
    const failed = await readAnswer(await create('Never half-made', 'unstorable'));
    expect(failed.status).toBe(500);
    expect(await titles()).not.toContain('Never half-made');

    // The key was released: the retry runs (its answer is still refused, so nothing is made again).
    const retried = await readAnswer(await create('Never half-made', 'unstorable'));
    expect(retried.status).toBe(500);
    expect(await titles()).not.toContain('Never half-made');

    await sql`drop trigger refuse_answer on idempotency_keys`.execute(running.app.ctx.db);
    const made = await readAnswer(await create('Never half-made', 'unstorable'));
    expect(made.status).toBe(200);
    const replayed = await readAnswer(await create('Never half-made', 'unstorable'));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data.id).toBe(made.body.data.id);
    expect((await titles()).filter((title) => title === 'Never half-made')).toHaveLength(1);
  });

  it('commits the change and its answer in one transaction', async () => {
    // While the change's transaction is open, its answer is not readable from outside; once the
    // request is answered, both are: they became visible at one commit.
    const answer = await readAnswer(await create('Made with its answer', 'together'));
    expect(answer.status).toBe(200);
    const { db } = running.app.ctx;
    const stored = await db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response_body'])
      .where('key', '=', 'together')
      .executeTakeFirstOrThrow();
    expect(stored.status_code).toBe(200);
    expect(JSON.parse(stored.response_body).data.id).toBe(answer.body.data.id);
    const task = await db
      .selectFrom('tasks')
      .select(['id', 'xmin' as never])
      .where('id', '=', answer.body.data.id)
      .executeTakeFirstOrThrow();
    const key = await db
      .selectFrom('idempotency_keys')
      .select(['xmin' as never])
      .where('key', '=', 'together')
      .executeTakeFirstOrThrow();
    // xmin: the transaction that wrote the row version.
    expect((key as unknown as { xmin: string }).xmin).toBe((task as unknown as { xmin: string }).xmin);
  });
});
