import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER } from '@threadwork/shared/webhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { readBody, type SpawnedServer, spawnServer } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  deliveriesOf,
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  waitUntil,
} from './webhooks-support.ts';

// The outbox is durable: deliveries live in the database file and survive a stop or a crash.
describe('webhook delivery across restarts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhooks-restart-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  // Registered after the directory's removal, so (after-hooks run last-registered first) the servers
  // stop before their database directory goes.
  const cleanup = closeAfterEach();

  it('resumes a pending retry after a restart and sends it exactly when due', async () => {
    const db = join(dir, 'service.db');
    // Four failures put the next attempt 30 min × 0.001 = 1.8 s (±10 %) after the fourth.
    const receiver = await startReceiver((_request, index) => (index < 4 ? 503 : 200));
    cleanup(() => receiver.close());
    const first = await startWebhookServer({ db });
    const subscription = await subscribe(first, { target_url: receiver.url, events: ['task.created'] });
    await createTask(first, 'lst_todo', 'Survives restarts');
    await waitUntil(
      async () => (await deliveriesOf(first, subscription.id))[0]?.attempt_count === 4,
      'four failed attempts',
    );
    const [pending] = await deliveriesOf(first, subscription.id);
    expect(pending!.status).toBe('pending');
    const dueAt = Date.parse(pending!.next_attempt_at!);
    await first.close();

    const second = await startWebhookServer({ db, seed: undefined });
    cleanup(() => second.close());
    expect(Date.now()).toBeLessThan(dueAt - 200);
    await waitUntil(() => receiver.requests.length === 5, 'the fifth attempt', 5000);
    const fifth = receiver.requests[4]!;
    // Not before it was due (timers may round to the millisecond), and without undue delay.
    expect(fifth.at).toBeGreaterThanOrEqual(dueAt - 2);
    expect(fifth.at - dueAt).toBeLessThan(250);
    expect(fifth.headers[DELIVERY_ID_HEADER]).toBe(receiver.requests[0]!.headers[DELIVERY_ID_HEADER]);

    await waitUntil(
      async () => (await deliveriesOf(second, subscription.id))[0]?.status === 'delivered',
      'delivered',
    );
    const [delivered] = await deliveriesOf(second, subscription.id);
    expect(delivered!.attempts.map((attempt) => attempt.status_code)).toEqual([503, 503, 503, 503, 200]);
    await sleep(100);
    expect(receiver.requests).toHaveLength(5);
  });

  it('sends again a delivery that was in flight when the process was killed (at-least-once)', async () => {
    const db = join(dir, 'service.db');
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(fixtureSeed));
    const flags = ['--port', '0', '--db', db, '--allow-insecure-webhooks', '--webhook-time-scale', '0.001'];

    // The first request is never answered: the process dies while it is in flight.
    let hold = true;
    const received: Array<{ delivery: string; event: string }> = [];
    const hanging = createServer((req, res) => {
      received.push({
        delivery: req.headers[DELIVERY_ID_HEADER] as string,
        event: req.headers[EVENT_ID_HEADER] as string,
      });
      req.resume();
      if (!hold) res.end('ok');
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const port = (hanging.address() as { port: number }).port;
    cleanup(async () => {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    });

    const crashing: SpawnedServer = await spawnServer([...flags, '--seed', seedFile]);
    const headers = { authorization: `Bearer ${SECRETS.adaFull}`, 'content-type': 'application/json' };
    const created = await fetch(`${crashing.origin}/v2/webhooks/subscriptions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ target_url: `http://127.0.0.1:${port}/hook`, events: ['task.created'] }),
    });
    expect(created.status).toBe(200);
    const task = await fetch(`${crashing.origin}/v2/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ list_id: 'lst_todo', title: 'In flight' }),
    });
    expect(task.status).toBe(200);
    await waitUntil(() => received.length === 1, 'the first attempt to arrive');
    crashing.process.kill('SIGKILL');
    await new Promise((resolve) => crashing.process.once('exit', resolve));

    hold = false;
    const restarted = await spawnServer(flags);
    cleanup(() => restarted.stop());
    await waitUntil(() => received.length === 2, 'the delivery to be sent again');
    expect(received[1]).toEqual(received[0]);

    const subscriptionId = (await readBody(created)).data.id as string;
    await waitUntil(async () => {
      const log = await fetch(`${restarted.origin}/v2/webhooks/subscriptions/${subscriptionId}/deliveries`, {
        headers,
      });
      return (await readBody(log)).data[0]?.status === 'delivered';
    }, 'the delivery to be recorded as delivered');
  });
});
