// Several server processes on one PostgreSQL database (runs in the reference-server-postgres project
// only): they share the webhook outbox without sending a delivery twice or losing one, a process
// killed mid-load loses nothing it acknowledged, and an Idempotency-Key holds across processes (and
// goes with a process that dies holding it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER } from '@threadwork/shared/webhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { WRITE_LOCK } from '../../src/db/transaction.ts';
import { freshDatabase } from '../helpers/database.ts';
import { fixtureSeed } from '../helpers/fixtures.ts';
import { clientOf, readAnswer, type SpawnedServer, spawnServer, type TestServer } from '../helpers/server.ts';
import {
  closeAfterEach,
  type Receiver,
  settlesWithin,
  sleep,
  startReceiver,
  subscribe,
  waitUntil,
} from '../webhooks-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadwork-processes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const seedFile = join(dir, 'seed.json');
writeFileSync(seedFile, JSON.stringify(fixtureSeed));

let databases = 0;

/** Two server processes on one fresh database: the first seeds it, the second joins. */
async function startPair(): Promise<{
  a: SpawnedServer;
  b: SpawnedServer;
  clients: [TestServer, TestServer];
  databaseUrl: string;
}> {
  // A path names one database to both processes (see helpers/database.ts).
  const db = join(dir, `shared-${++databases}.db`);
  const flags = ['--port', '0', '--db', db, '--allow-insecure-webhooks', '--webhook-time-scale', '0.001'];
  const a = await spawnServer([...flags, '--seed', seedFile]);
  const b = await spawnServer(flags);
  const stop = (server: SpawnedServer) => async () => {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop();
  };
  const { databaseUrl } = await freshDatabase(db);
  return {
    a,
    b,
    clients: [clientOf(a.origin, stop(a)), clientOf(b.origin, stop(b))],
    databaseUrl: databaseUrl!,
  };
}

/** The task ids the receiver has heard a `task.created` of, with how often each. */
function createdTaskCounts(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.requests) {
    const event = JSON.parse(request.body) as { type: string; data: { task: { id: string } } };
    if (event.type !== 'task.created') continue;
    counts.set(event.data.task.id, (counts.get(event.data.task.id) ?? 0) + 1);
  }
  return counts;
}

const createTask = (
  server: TestServer,
  title: string,
  headers: Record<string, string> = {},
  listId = 'lst_todo',
) => server.v2('/tasks', { method: 'POST', body: { list_id: listId, title }, headers });

/** A connection whose open transaction holds `listId`'s row, as a write transaction on the list does. */
async function holdList(databaseUrl: string, listId: string) {
  const { default: pg } = await import('pg');
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  await holder.query('begin');
  await holder.query(`select pg_advisory_xact_lock_shared(${WRITE_LOCK})`);
  await holder.query('select id from lists where id = $1 for update', [listId]);
  return holder;
}

describe('several server processes on one PostgreSQL database', () => {
  const cleanup = closeAfterEach();

  it('deliver from one outbox: each event reaches the receiver exactly once', async () => {
    // Tasks are created through both processes, so both workers are woken and claim from the outbox.
    const receiver = await startReceiver();
    cleanup(() => receiver.close());
    const { clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    await subscribe(clients[0], { target_url: receiver.url, events: ['task.created'] });

    const total = 80;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, index) => createTask(clients[index % 2]!, `Task ${index}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(total).fill(200));
    await waitUntil(() => createdTaskCounts(receiver).size === total, `${total} events`, 15_000);
    // Longer than a worker's poll: a second copy would have left by now.
    await sleep(1500);
    const counts = createdTaskCounts(receiver);
    expect(counts.size).toBe(total);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const eventIds = receiver.requests.map((request) => request.headers[EVENT_ID_HEADER]);
    expect(new Set(eventIds).size).toBe(eventIds.length);
  });

  it('never send the original’s retry while a replay made in the other process is in flight, then stop it', async () => {
    let replayId: string | null = null;
    let dueAgainAt = Number.POSITIVE_INFINITY;
    // The original always fails; the replay's answer is held until the original's retry has been due a while.
    const receiver = await startReceiver(async (request) => {
      if (request.headers[DELIVERY_ID_HEADER] !== replayId) return 500;
      while (Date.now() < dueAgainAt + 500) await sleep(20);
      return 200;
    });
    cleanup(() => receiver.close());
    const { clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    const subscription = await subscribe(clients[0], { target_url: receiver.url, events: ['task.created'] });
    expect((await createTask(clients[0], 'Replayed from the other process')).status).toBe(200);
    type Delivery = { id: string; status: string; attempt_count: number; next_attempt_at: string | null };
    const deliveries = async (): Promise<Delivery[]> =>
      (await readAnswer(await clients[1].v2(`/webhooks/subscriptions/${subscription.id}/deliveries`))).body
        .data;
    // After four failures the next retry waits 30 min, here 1.8 s, for either process to take.
    let original: Delivery | undefined;
    await waitUntil(
      async () => {
        original = (await deliveries())[0];
        return (original?.attempt_count ?? 0) >= 4;
      },
      'four failed attempts',
      10_000,
    );
    dueAgainAt = Date.parse(original!.next_attempt_at!);
    const replay = await readAnswer(
      await clients[1].v2(`/webhooks/deliveries/${original!.id}/replay`, { method: 'POST' }),
    );
    replayId = replay.body.data.id as string;
    await waitUntil(
      () => receiver.requests.some((request) => request.headers[DELIVERY_ID_HEADER] === replayId),
      'the replay to arrive',
    );
    const sentOriginal = () =>
      receiver.requests.filter((request) => request.headers[DELIVERY_ID_HEADER] === original!.id).length;
    const sentBefore = sentOriginal();
    await waitUntil(
      async () => (await deliveries()).find((delivery) => delivery.id === original!.id)?.status !== 'pending',
      'the original to settle',
      10_000,
    );
    expect((await deliveries()).map((delivery) => [delivery.id, delivery.status])).toEqual([
      [replayId, 'delivered'],
      [original!.id, 'suppressed'],
    ]);
    // Longer than a worker's poll: a retry of the original would have left by now.
    await sleep(1500);
    expect(sentOriginal()).toBe(sentBefore);
  }, 30_000);

  it('lose no acknowledged write and no delivery when one of them is killed (-9) mid-load', async () => {
    const receiver = await startReceiver();
    cleanup(() => receiver.close());
    const { a, clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    await subscribe(clients[1], { target_url: receiver.url, events: ['task.created'] });

    const acknowledged = new Set<string>();
    let killed = false;
    // Four clients per process, each creating tasks one after another until it has made 25 attempts.
    const client = async (server: TestServer, name: string) => {
      for (let index = 0; index < 25; index++) {
        try {
          const answer = await readAnswer(await createTask(server, `${name} ${index}`));
          if (answer.status === 200) acknowledged.add(answer.body.data.id as string);
          else if (!killed) throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
        } catch (error) {
          // Only the killed process may fail to answer.
          if (!(killed && server === clients[0])) throw error;
        }
        if (!killed && server === clients[0] && acknowledged.size >= 40) {
          killed = true;
          a.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all(
      [0, 1, 2, 3].flatMap((n) => [client(clients[0], `a${n}`), client(clients[1], `b${n}`)]),
    );
    expect(killed).toBe(true);
    // Every acknowledged task is there, read through the survivor.
    const listed = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = await readAnswer(
        await clients[1].v2(`/tasks?list_id=lst_todo&limit=200${cursor ? `&cursor=${cursor}` : ''}`),
      );
      for (const task of page.body.data as { id: string }[]) listed.add(task.id);
      cursor = page.body.meta.pagination.next_cursor;
    } while (cursor);
    expect([...acknowledged].filter((id) => !listed.has(id))).toEqual([]);
    // ... and its event reaches the receiver: what the dead process held goes out from the survivor.
    await waitUntil(
      () => [...acknowledged].every((id) => createdTaskCounts(receiver).has(id)),
      'an event for every acknowledged task',
      15_000,
    );
    // At least once: only a delivery in flight when the process died may be sent twice.
    const twice = [...createdTaskCounts(receiver).values()].filter((count) => count > 1).length;
    expect(twice).toBeLessThanOrEqual(8);
  });

  it('create one object when the same Idempotency-Key reaches both at once', async () => {
    const { clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    const headers = { 'idempotency-key': 'same-key-both-processes' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) =>
        readAnswer(await createTask(clients[index % 2]!, 'Only once', headers)),
      ),
    );
    const created = answers.filter((answer) => answer.status === 200);
    const running = answers.filter((answer) => answer.status === 409);
    expect(created.length + running.length).toBe(answers.length);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of running) {
      expect(answer.body.error.code).toBe('idempotency_in_progress');
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(new Set(created.map((answer) => answer.body.data.id)).size).toBe(1);

    // Once answered, either process replays the one answer.
    for (const server of clients) {
      const replay = await readAnswer(await createTask(server, 'Only once', headers));
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.id).toBe(created[0]!.body.data.id);
    }
    const listed = await readAnswer(await clients[1].v2('/tasks?list_id=lst_todo&limit=200'));
    const titled = (listed.body.data as { title: string }[]).filter((task) => task.title === 'Only once');
    expect(titled).toHaveLength(1);
  });

  it('replay a stored answer only once its key is free again, for the other process too', async () => {
    const { clients, databaseUrl } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    const headers = { 'idempotency-key': 'replayed-in-a-group' };
    const created = await readAnswer(await createTask(clients[0], 'Only once', headers));
    expect(created.status).toBe(200);

    // Every write transaction waits to begin, and the list is held: a group of creates on it gathers.
    const { default: pg } = await import('pg');
    const listHolder = new pg.Client({ connectionString: databaseUrl });
    const writeHolder = new pg.Client({ connectionString: databaseUrl });
    for (const client of [listHolder, writeHolder]) {
      await client.connect();
      cleanup(() => client.end());
      await client.query('begin');
    }
    await listHolder.query("select id from lists where id = 'lst_todo' for update");
    await writeHolder.query(`select pg_advisory_xact_lock(${WRITE_LOCK})`);
    // A replay opens the group, whose transaction claims the key for it, then a create with no key
    // joins it; that create's writes wait for the list, holding the group (and so the key) open.
    const replays = createTask(clients[0], 'Only once', headers)
      .then(readAnswer)
      .then(async (first) => {
        // The moment the first replay is answered, the other process replays too.
        const second = await readAnswer(await createTask(clients[1], 'Only once', headers));
        return [first, second];
      });
    await sleep(300);
    const other = createTask(clients[0], 'Another task').then(readAnswer);
    await sleep(300);
    await writeHolder.query('commit');
    await sleep(300);
    await listHolder.query('commit');

    for (const replay of await replays) {
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.id).toBe(created.body.data.id);
    }
    expect((await other).status).toBe(200);
  });

  it('let creates on one list run while a transaction holds another, and queue those on the held list', async () => {
    const { clients, databaseUrl } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    // A write transaction holds list A (To do), exactly as a create on it does until it commits.
    const holder = await holdList(databaseUrl, 'lst_todo');
    cleanup(() => holder.end());

    // Creates on A, through both processes: they wait for the holder.
    const onA = Array.from({ length: 6 }, (_, index) =>
      createTask(clients[index % 2]!, `On A ${index}`).then(readAnswer),
    );
    // Creates on B (Doing), through both processes, meanwhile: answered at once.
    const onB = Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        createTask(clients[index % 2]!, `On B ${index}`, {}, 'lst_doing').then(readAnswer),
      ),
    );
    expect(await settlesWithin(onB, 5000)).toBe(true);
    expect((await onB).map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(await settlesWithin(Promise.race(onA), 300)).toBe(false);

    await holder.query('commit');
    const answers = await Promise.all(onA);
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    // One after another: each landed at the top, above the one before, at a position of its own.
    const { rows } = await holder.query<{ title: string; position: number }>(
      "select title, position from tasks where list_id = 'lst_todo' order by position",
    );
    expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
    const listed = await readAnswer(await clients[1].v2('/tasks?list_id=lst_todo&limit=50'));
    const titles = (listed.body.data as { title: string }[]).map((task) => task.title);
    expect(titles.filter((title) => title.startsWith('On A')).sort()).toEqual(
      Array.from({ length: 6 }, (_, index) => `On A ${index}`),
    );
    expect(titles.at(-1)).toBe('Call Bob');
  });

  it('let a retry run at once when the process running its Idempotency-Key dies mid-request', async () => {
    const { a, clients, databaseUrl } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    // The list is held, so A's keyed create stops in its last round trip, holding the key.
    const holder = await holdList(databaseUrl, 'lst_todo');
    cleanup(() => holder.end());
    const key = 'dies-mid-request';
    const headers = { 'idempotency-key': key };
    const dying = createTask(clients[0], 'Made once after a crash', headers).catch(() => undefined);
    // The one session waiting for a lock in this database: A's, for the list.
    const waitingBackend = async () =>
      (
        await holder.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0]?.pid;
    await waitUntil(async () => (await waitingBackend()) !== undefined, "A's create waiting for the list");
    const meanwhile = await readAnswer(await createTask(clients[1], 'Made once after a crash', headers));
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.error.code).toBe('idempotency_in_progress');

    // A dies; PostgreSQL ends its session once it sees the connection gone (here: at once).
    a.process.kill('SIGKILL');
    await holder.query('select pg_terminate_backend($1)', [await waitingBackend()]);
    await dying;
    await holder.query('commit');

    // The key went with A's session: the retry runs now, not once a lease has run out.
    const retried = await readAnswer(await createTask(clients[1], 'Made once after a crash', headers));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const { rows } = await holder.query("select id from tasks where title = 'Made once after a crash'");
    expect(rows.map((row) => row['id'])).toEqual([retried.body.data.id]);
  });

  it("stop a key's hook and webhook at once when another process revokes it", async () => {
    const [ofKey, ofOther] = [await startReceiver(), await startReceiver()];
    cleanup(ofKey.close, ofOther.close);
    const { clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    const [a, b] = clients;
    // Through A, a legacy key's session token subscribes a v1 hook and a v2 webhook, as a Zap does.
    const made = await readAnswer(
      await a.v2('/api-keys', { method: 'POST', body: { name: 'Zap', type: 'legacy' } }),
    );
    const { id, api_key, api_secret } = made.body.data as Record<string, string>;
    const exchanged = await fetch(`${a.origin}/auth/api_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', api_key, api_secret, api_key_name: 'Zap' }),
    });
    const token = (await readAnswer(exchanged)).body['x-access-token'] as string;
    const hook = await a.v1('/items/subscribe', {
      method: 'POST',
      token,
      body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: ofKey.url, apiService: 'zapier' },
    });
    expect(hook.status).toBe(200);
    const keyed = await a.v2('/webhooks/subscriptions', {
      method: 'POST',
      token,
      body: { target_url: ofKey.url, events: ['task.created'] },
    });
    expect(keyed.status).toBe(200);
    // ada's own key, beside: its webhook goes on.
    await subscribe(b, { target_url: ofOther.url, events: ['task.created'] });
    expect((await createTask(a, 'Before')).status).toBe(200);
    await waitUntil(() => ofKey.requests.length === 2 && ofOther.requests.length === 1, 'the first event');

    // B revokes the key; A, which authenticated its token a moment ago, refuses it at once.
    const revoked = await readAnswer(await b.v2(`/api-keys/${id}`, { method: 'DELETE' }));
    expect(revoked.body.data).toEqual({ id, deleted: true, webhooks_disabled: 1, hooks_deleted: 1 });
    expect((await a.v1('/teams', { token })).status).toBe(401);
    expect((await createTask(a, 'After')).status).toBe(200);
    await waitUntil(() => ofOther.requests.length === 2, 'the second event at the other key’s webhook');
    // Longer than a worker's poll: what either process would still send has left by now.
    await sleep(1500);
    expect(ofKey.requests.length).toBe(2);
  });

  it("see another process's change at their next request: a revoked key, a new task", async () => {
    const { clients } = await startPair();
    cleanup(clients[0].close, clients[1].close);
    const [a, b] = clients;
    const created = await readAnswer(
      await a.v2('/api-keys', { method: 'POST', body: { name: 'short-lived' } }),
    );
    expect(created.status).toBe(200);
    const { id, secret } = created.body.data as { id: string; secret: string };
    // B authenticates the key, twice: the second time from its cache.
    for (let run = 0; run < 2; run++) expect((await b.v2('/me', { key: secret })).status).toBe(200);
    expect((await a.v2(`/api-keys/${id}`, { method: 'DELETE' })).status).toBe(200);
    const refused = await readAnswer(await b.v2('/me', { key: secret }));
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthenticated');

    // B reads a page, twice: the second time from its rendered copy.
    const page = async () =>
      (
        (await readAnswer(await b.v2('/tasks?list_id=lst_todo&limit=50'))).body.data as { title: string }[]
      ).map((task) => task.title);
    expect(await page()).toEqual(['Call Bob']);
    expect(await page()).toEqual(['Call Bob']);
    expect((await createTask(a, 'Made through A')).status).toBe(200);
    expect(await page()).toEqual(['Made through A', 'Call Bob']);
  });
});
