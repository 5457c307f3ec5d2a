import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from '../src/delivery/schedule.ts';
import { recordTaskEvent } from '../src/domain/events/record.ts';
import { getTask } from '../src/domain/tasks/queries.ts';
import { toV1Item } from '../src/domain/tasks/view.ts';
import { type DomainContext, runInTransaction } from '../src/domain/transaction.ts';
import { readBody } from './helpers/server.ts';
import {
  deliveriesOf,
  type Receiver,
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

describe('the retry schedule', () => {
  it('waits 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between at most nine attempts', () => {
    expect(RETRY_DELAYS_MS).toEqual([0, 5e3, 300e3, 1800e3, 7200e3, 18000e3, 36000e3, 36000e3]);
    expect(MAX_ATTEMPTS).toBe(9);
    expect(retryDelayMs(9, 1)).toBeNull();
  });

  it('varies each wait by at most ±10 % and multiplies it by the time scale', () => {
    expect(retryDelayMs(2, 1, () => 0)).toBeCloseTo(4500);
    expect(retryDelayMs(2, 1, () => 0.999999)).toBeCloseTo(5500, 0);
    expect(retryDelayMs(3, 0.001, () => 0.5)).toBeCloseTo(300);
    expect(retryDelayMs(1, 1, () => 0.9)).toBe(0);
  });
});

describe('recording events inside a transaction', () => {
  let server: WebhookTestServer;
  let receiver: Receiver;
  let subscriptionId: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startWebhookServer();
    subscriptionId = (await subscribe(server, { target_url: receiver.url, events: ['task.updated'] })).id;
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** The server's context with an outbox that counts wake-ups before passing them on. */
  function countingContext(): { ctx: DomainContext; wakes: () => number } {
    let wakes = 0;
    const ctx: DomainContext = {
      ...server.ctx,
      outbox: {
        wake: () => {
          wakes++;
          server.ctx.outbox.wake();
        },
      },
    };
    return { ctx, wakes: () => wakes };
  }

  async function recordUpdate(ctx: DomainContext, fail: boolean): Promise<void> {
    await runInTransaction(ctx, async (tx) => {
      const task = await getTask(tx, 'usr_ada', 'tsk_1');
      await recordTaskEvent(
        tx,
        {
          kind: 'updated',
          task,
          item: () => toV1Item(task),
          boardId: 'brd_acme',
          listId: 'lst_todo',
          previous: { shade: 'red' },
        },
        ctx.now(),
      );
      if (fail) throw new Error('the change failed after its event was recorded');
    });
  }

  it('wakes the worker after a commit that recorded an event, and delivers it', async () => {
    const { ctx, wakes } = countingContext();
    await recordUpdate(ctx, false);
    expect(wakes()).toBe(1);
    await waitUntil(() => receiver.requests.length === 1, 'the delivery');
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      type: 'task.updated',
      data: { task: { id: 'tsk_1' } },
    });
  });

  it('sends nothing for a transaction that rolled back', async () => {
    const { ctx, wakes } = countingContext();
    const before = receiver.requests.length;
    await expect(recordUpdate(ctx, true)).rejects.toThrow('the change failed');
    expect(wakes()).toBe(0);
    await sleep(100);
    expect(receiver.requests).toHaveLength(before);
    expect(await deliveriesOf(server, subscriptionId)).toHaveLength(before);
  });

  it('does not wake the worker for a transaction without events', async () => {
    const { ctx, wakes } = countingContext();
    await runInTransaction(ctx, (tx) => getTask(tx, 'usr_ada', 'tsk_1'));
    expect(wakes()).toBe(0);
  });

  it('lists a subscription’s deliveries newest first, paginated and filtered by status', async () => {
    const target = await startReceiver();
    try {
      const { id } = await subscribe(server, { target_url: target.url, events: ['task.created'] });
      const sent: string[] = [];
      for (let index = 0; index < 3; index++) {
        const response = await server.v2(`/webhooks/subscriptions/${id}/test`, { method: 'POST' });
        sent.push((await readBody(response)).data.id);
      }
      await waitUntil(() => target.requests.length === 3, 'three test deliveries');
      await waitUntil(
        async () => (await deliveriesOf(server, id, '?status=delivered')).length === 3,
        'three delivered',
      );

      const first = await readBody(await server.v2(`/webhooks/subscriptions/${id}/deliveries?limit=2`));
      expect(first.data.map((delivery: { id: string }) => delivery.id)).toEqual([sent[2], sent[1]]);
      expect(first.meta.pagination).toMatchObject({ has_more: true, limit: 2 });
      const cursor = first.meta.pagination.next_cursor as string;
      const second = await readBody(
        await server.v2(`/webhooks/subscriptions/${id}/deliveries?limit=2&cursor=${cursor}`),
      );
      expect(second.data.map((delivery: { id: string }) => delivery.id)).toEqual([sent[0]]);
      expect(second.meta.pagination).toMatchObject({ has_more: false, next_cursor: null });

      expect(await deliveriesOf(server, id, '?status=pending')).toEqual([]);
      expect((await server.v2(`/webhooks/subscriptions/${id}/deliveries?status=lost`)).status).toBe(400);
      expect((await server.v2(`/webhooks/subscriptions/${id}/deliveries?cursor=nonsense`)).status).toBe(400);
    } finally {
      await target.close();
    }
  });
});
