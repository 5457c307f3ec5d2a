// Group commit: the changes of one turn share a commit, a failing change rolls back alone, a failing
// commit rolls back its whole batch, fails every answer that waited on it and delivers none of its events.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { groupCommit, whenCommitted } from '../src/db/transaction.ts';
import { readBody } from './helpers/server.ts';
import {
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

const NOW = '2026-03-10T12:00:00.000Z';

// A deferred foreign key is checked at COMMIT, not at the statement or at the savepoint's release:
// the one way to make a batch fail on demand. Inserting a task titled "poison" violates it.
const poison = async (db: DatabaseHandle['db']) => {
  await sql`create table poison (user_id text references users (id) deferrable initially deferred)`.execute(
    db,
  );
  await sql`create trigger poison_task after insert on tasks when new.title = 'poison'
    begin insert into poison values ('usr_nobody'); end`.execute(db);
  await whenCommitted(db);
};

const insertUser = (db: DatabaseHandle['db'], id: string) =>
  db
    .insertInto('users')
    .values({ id, email: `${id}@example.com`, display_name: id, created_at: NOW })
    .execute();

const userIds = async (db: DatabaseHandle['db']) =>
  (await db.selectFrom('users').select('id').orderBy('id').execute()).map((row) => row.id);

describe('group commit', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openDatabase({ path: ':memory:' });
    await whenCommitted(handle.db);
  });
  afterEach(() => handle.close());

  it('commits the transactions of one turn together, once their work is done', async () => {
    const { db } = handle;
    expect(whenCommitted(db)).toBeNull();
    const first = db.transaction().execute((tx) => insertUser(tx, 'usr_a'));
    const second = db.transaction().execute((tx) => insertUser(tx, 'usr_b'));
    await Promise.all([first, second]);
    const pending = whenCommitted(db);
    expect(pending).not.toBeNull();
    await insertUser(db, 'usr_c'); // a statement outside a transaction joins the same batch
    expect(whenCommitted(db)).toBe(pending);
    await pending;
    expect(whenCommitted(db)).toBeNull();
    expect(await userIds(db)).toEqual(['usr_a', 'usr_b', 'usr_c']);
  });

  it('rolls back a failing transaction alone, keeping the rest of its batch', async () => {
    const { db } = handle;
    const kept = db.transaction().execute((tx) => insertUser(tx, 'usr_kept'));
    const failed = db.transaction().execute(async (tx) => {
      await insertUser(tx, 'usr_rolled_back');
      throw new Error('changed its mind');
    });
    await expect(failed).rejects.toThrow('changed its mind');
    await kept;
    await whenCommitted(db);
    expect(await userIds(db)).toEqual(['usr_kept']);
  });

  it('rolls back a whole batch whose commit fails, tells its waiters and listeners, then goes on', async () => {
    const { db } = handle;
    const failures: unknown[] = [];
    groupCommit(db)?.onFailure((error) => failures.push(error));
    await poison(db);
    await insertUser(db, 'usr_same_batch');
    await sql`insert into poison values ('usr_nobody')`.execute(db);
    const before = groupCommit(db)?.writeCount ?? 0;
    await expect(whenCommitted(db)).rejects.toThrow(/FOREIGN KEY/);
    expect(failures).toHaveLength(1);
    expect(groupCommit(db)?.writeCount).toBeGreaterThan(before); // read caches start over
    expect(await userIds(db)).toEqual([]);

    await insertUser(db, 'usr_next_batch');
    await whenCommitted(db);
    expect(await userIds(db)).toEqual(['usr_next_batch']);
  });
});

describe('nothing leaves before its commit', () => {
  let server: WebhookTestServer;
  beforeEach(async () => {
    server = await startWebhookServer();
    await poison(server.ctx.db);
  });
  afterEach(() => server.close());

  const createTask = (title: string) =>
    server.v2('/tasks', { method: 'POST', body: { list_id: 'lst_doing', title } });
  const titles = async () => {
    const body = await readBody(await server.v2('/tasks?list_id=lst_doing'));
    return (body.data as Array<{ title: string }>).map((task) => task.title);
  };

  it('answers 500 for a change whose batch fails to commit, and keeps nothing of it', async () => {
    const response = await createTask('poison');
    expect(response.status).toBe(500);
    expect((await readBody(response)).error.code).toBe('internal_error');
    expect(await titles()).not.toContain('poison');

    const next = await createTask('Call Bob back');
    expect(next.status).toBe(200);
    expect(await titles()).toContain('Call Bob back');
  });

  it('never delivers the event of a change whose batch failed to commit', async () => {
    const receiver = await startReceiver();
    try {
      await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
      expect((await createTask('poison')).status).toBe(500);
      expect((await createTask('delivered')).status).toBe(200);
      await waitUntil(() => receiver.requests.length >= 1, 'the committed change to be delivered');
      await sleep(100); // time enough for a stray delivery to arrive as well
      const delivered = receiver.requests.map((request) => JSON.parse(request.body).data.task.title);
      expect(delivered).toEqual(['delivered']);
    } finally {
      await receiver.close();
    }
  });
});
