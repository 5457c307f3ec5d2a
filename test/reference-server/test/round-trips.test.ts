// What the hot paths cost in statements, each a network round trip on PostgreSQL (see
// docs/postgresql.md): authentication, a page of tasks, and a keyed create with its event and stored
// answer. Counted by the database layer (`statementCount`), on whichever database the project runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementCount } from '../src/db/executor.ts';
import type { RunningServer } from '../src/index.ts';
import { onPostgres } from './helpers/database.ts';
import { readAnswer, startRunningTestServer, type TestServer } from './helpers/server.ts';

let running: RunningServer;
let server: TestServer;

beforeAll(async () => {
  ({ running, server } = await startRunningTestServer());
});
afterAll(() => server.close());

/**
 * Statements one request costs: the fewest over a few runs, so that a statement of the delivery
 * worker's (it looks at the outbox every second on PostgreSQL) never counts as the request's.
 */
export async function statementsPerRequest(send: (run: number) => Promise<Response>): Promise<number> {
  const { db } = running.app.ctx;
  let fewest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 4; run++) {
    const before = statementCount(db);
    const answer = await readAnswer(await send(run));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    fewest = Math.min(fewest, statementCount(db) - before);
  }
  return fewest;
}

/**
 * Upper bounds: the counts measured when they were last cut (docs/postgresql.md lists them; before
 * issue 18, PostgreSQL took 1, 5 and 11). On PostgreSQL a kept principal or page costs one query on
 * the listening connection (db/changes.ts), counted here too.
 */
const BOUNDS = onPostgres
  ? { auth: 1, listTasks: 1, createTask: 3, updateTask: 6, moveTask: 8, reorderTask: 9 }
  : { auth: 0, listTasks: 0, createTask: 9, updateTask: 9, moveTask: 11, reorderTask: 9 };

describe('statements per request on the hot paths', () => {
  it('authenticates a key', async () => {
    const count = await statementsPerRequest(() => server.v2('/me'));
    console.log(`statements: GET /v2/me ${count}`);
    expect(count).toBeLessThanOrEqual(BOUNDS.auth);
  });

  it('reads a page of tasks', async () => {
    const count = await statementsPerRequest(() => server.v2('/tasks?list_id=lst_todo&limit=50'));
    console.log(`statements: GET /v2/tasks ${count}`);
    expect(count).toBeLessThanOrEqual(BOUNDS.listTasks);
  });

  it('creates a task with an Idempotency-Key, recording its event and its answer', async () => {
    const count = await statementsPerRequest((run) =>
      server.v2('/tasks', {
        method: 'POST',
        body: { list_id: 'lst_todo', title: `Counted ${run}` },
        headers: { 'idempotency-key': `count-${run}` },
      }),
    );
    console.log(`statements: POST /v2/tasks ${count}`);
    expect(count).toBeLessThanOrEqual(BOUNDS.createTask);
  });

  // Each command's first read travels with its transaction's `begin`, whatever it is (db/transaction.ts):
  // no caller names it ahead.
  it('updates, moves and reorders a task', async () => {
    const update = await statementsPerRequest((run) =>
      server.v2('/tasks/tsk_1', { method: 'PATCH', body: { shade: run % 2 === 0 ? 'yellow' : 'cyan' } }),
    );
    const move = await statementsPerRequest((run) =>
      server.v2('/tasks/tsk_1/move', {
        method: 'POST',
        body: { list_id: run % 2 === 0 ? 'lst_doing' : 'lst_todo' },
      }),
    );
    const reorder = await statementsPerRequest((run) =>
      server.v2('/tasks/tsk_1/reorder', {
        method: 'POST',
        body: { position: run % 2 === 0 ? 'bottom' : 'top' },
      }),
    );
    console.log(`statements: PATCH ${update}, move ${move}, reorder ${reorder}`);
    expect(update).toBeLessThanOrEqual(BOUNDS.updateTask);
    expect(move).toBeLessThanOrEqual(BOUNDS.moveTask);
    expect(reorder).toBeLessThanOrEqual(BOUNDS.reorderTask);
  });
});
