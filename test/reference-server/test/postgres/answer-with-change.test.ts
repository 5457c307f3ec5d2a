// On PostgreSQL a keyed write's stored answer commits in the change's own transaction: if the answer
// cannot be stored, the change is not made either, the client is told 500, and a retry with the same
// key runs the request again (once). Storing is made to fail by a trigger on the answers' table.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import type { RunningServer } from '../../src/index.ts';
import { SECRETS } from '../helpers/fixtures.ts';
import { mailboxWritesSeed, WRITE_SECRETS, WRITE_THREADS } from '../helpers/mailbox-writes-fixtures.ts';
import { readAnswer, readBody, startRunningTestServer, type TestServer } from '../helpers/server.ts';

let running: RunningServer;
let server: TestServer;

beforeAll(async () => {
  ({ running, server } = await startRunningTestServer({ allowInsecureWebhooks: true }));
  const { db } = running.app.ctx;
  await refuseAnswers(db, 'refuse_answer', 'unstorable');
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

  it('answers 500 in its own words when a refusal (a 4xx) cannot be stored either', async () => {
    await refuseAnswers(running.app.ctx.db, 'refuse_refusals', 'unstorable-refusal');
    const refused = await readAnswer(await create('', 'unstorable-refusal'));
    expect(refused.status).toBe(500);
    expect(refused.body).toEqual({
      error: { code: 'internal_error', message: 'internal error', request_id: expect.any(String) },
    });
    // The retry runs (nothing was kept under the key), and is refused again, for the same reason.
    const again = await readAnswer(await create('', 'unstorable-refusal'));
    expect(again.status).toBe(500);
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

  it('waits for its answer on every route module that writes (each hands its request context on)', async () => {
    const tokenAnswer = await fetch(
      `${server.origin}/auth/api_token?${new URLSearchParams(SECRETS.legacy)}`,
      { method: 'POST' },
    );
    const token = (await readBody(tokenAnswer))['x-access-token'] as string;
    await expectEachToWait(running, [
      ['v2/tasks', (key) => create(`Task ${key}`, key)],
      ['v2/lists', (key) => server.v2('/boards/brd_acme/lists', post(key, { name: `List ${key}` }))],
      ['v2/boards', (key) => server.v2('/boards', post(key, { team_id: 'team_acme', name: `Board ${key}` }))],
      [
        'v2/custom-fields',
        (key) =>
          server.v2('/boards/brd_acme/custom-fields', post(key, { name: `Field ${key}`, type: 'text' })),
      ],
      [
        'v2/crm',
        (key) => server.v2('/companies', post(key, { team_id: 'team_acme', name: `Company ${key}` })),
      ],
      [
        'v2/webhooks',
        (key) =>
          server.v2(
            '/webhooks/subscriptions',
            post(key, { target_url: `https://hooks.example.com/${key}`, events: ['task.created'] }),
          ),
      ],
      ['v2/api-keys', (key) => server.v2('/api-keys', post(key, { name: `Key ${key}` }))],
      [
        'v1/items',
        (key) => server.v1('/items', { ...post(key, { listId: 'lst_todo', title: `Item ${key}` }), token }),
      ],
      [
        'v1/subscriptions',
        (key) =>
          server.v1('/items/subscribe', {
            ...post(key, {
              action: 'itemCompleted',
              entityId: 'brd_acme',
              webhookURL: `https://hooks.example.com/${key}`,
            }),
            token,
          }),
      ],
    ]);
  });

  it('waits for its answer on the mailbox route modules too', async () => {
    const mailbox = await startRunningTestServer({ seed: mailboxWritesSeed });
    try {
      const send = (path: string, key: string, body?: unknown) =>
        mailbox.server.v2(path, { ...post(key, body), key: WRITE_SECRETS.adaAll });
      const thread = `/email-threads/${WRITE_THREADS.support}`;
      await expectEachToWait(mailbox.running, [
        ['v2/drafts', (key) => send('/drafts', key, { to: ['eve@example.com'], subject: key, body: 'b' })],
        ['v2/email-writes', (key) => send(`${thread}/read-state`, key, { read: true })],
        ['v2/analysis', (key) => send(`${thread}/analysis`, key)],
      ]);
    } finally {
      await mailbox.server.close();
    }
  });
});

/**
 * A route module that ran its write with the app's context instead of the request's would commit the
 * change before the answer, without claiming the key first. With its answer refused by a trigger, each
 * write must answer 500 and change no row; the same write under another key must change something
 * (so that the first check could fail).
 */
async function expectEachToWait(
  on: RunningServer,
  writes: [module: string, write: (key: string) => Promise<Response>][],
): Promise<void> {
  await refuseAnswers(on.app.ctx.db, 'refuse_numbered_answers', 'unstorable-%');
  for (const [module, write] of writes) {
    const before = await everything(on);
    const refused = await write(`unstorable-${module}`);
    expect({ module, status: refused.status }).toEqual({ module, status: 500 });
    expect({ module, changed: (await everything(on)) !== before }).toEqual({ module, changed: false });
    const made = await write(`stored-${module}`);
    expect({ module, ok: made.ok }).toEqual({ module, ok: true });
    expect({ module, changed: (await everything(on)) !== before }).toEqual({ module, changed: true });
  }
}

/**
 * Makes storing an answer (not a running key's claim, status 0) under a key `like` `keys` fail, by a
 * trigger named `trigger`.
 */
async function refuseAnswers(db: Kysely<Database>, trigger: string, keys: string): Promise<void> {
  await sql`create or replace function refuse_answer() returns trigger language plpgsql as $$
    begin raise exception 'answers under this key cannot be stored'; end $$`.execute(db);
  await sql`create trigger ${sql.id(trigger)} before insert or update on idempotency_keys for each row
    when (new.key like ${sql.lit(keys)} and new.status_code <> 0) execute function refuse_answer()`.execute(
    db,
  );
}

const post = (key: string, body: unknown) => ({
  method: 'POST',
  body,
  headers: { 'idempotency-key': key },
});

/** Every row of every table but the stored answers', as one text: equal texts, no change. */
async function everything(on: RunningServer): Promise<string> {
  const { db } = on.app.ctx;
  const { rows } = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'idempotency_keys'
    order by table_name`.execute(db);
  const parts: string[] = [];
  for (const { table_name } of rows) {
    const {
      rows: [row],
    } = await sql<{ rows: string | null }>`select string_agg(t::text, '|' order by t::text) as rows
      from ${sql.table(table_name)} t`.execute(db);
    parts.push(`${table_name}:${row?.rows ?? ''}`);
  }
  return parts.join('\n');
}
