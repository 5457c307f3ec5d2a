import { WebhookDelivery } from '@threadwork/shared/schemas';
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  verifySignature,
} from '@threadwork/shared/webhooks';
import { describe, expect, it } from 'vitest';
import { readBody } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  deliveriesOf,
  type Responder,
  shiftableClock,
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  v1Token,
  waitUntil,
} from './webhooks-support.ts';

const DAY = 24 * 3600_000;

describe('webhook delivery: retries, give-ups and replays (time scale 0.001)', () => {
  const cleanup = closeAfterEach();
  async function setup(respond: Responder, options: Parameters<typeof startWebhookServer>[0] = {}) {
    const receiver = await startReceiver(respond);
    const server = await startWebhookServer(options);
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    return { receiver, server };
  }

  it('retries a failing receiver and logs every attempt until it recovers', async () => {
    const { receiver, server } = await setup((_request, index) => (index < 2 ? 500 : 200));
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Retry me');

    await waitUntil(
      async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'delivered',
      'delivered',
    );
    expect(receiver.requests).toHaveLength(3);
    // One delivery, tried three times with the same bytes and ids.
    expect(new Set(receiver.requests.map((request) => request.headers[DELIVERY_ID_HEADER])).size).toBe(1);
    expect(new Set(receiver.requests.map((request) => request.headers[EVENT_ID_HEADER])).size).toBe(1);
    expect(new Set(receiver.requests.map((request) => request.body)).size).toBe(1);

    const [delivery] = await deliveriesOf(server, subscription.id);
    expect(WebhookDelivery.parse(delivery)).toMatchObject({
      status: 'delivered',
      attempt_count: 3,
      next_attempt_at: null,
      event_type: 'task.created',
    });
    expect(delivery!.attempts.map((attempt) => [attempt.outcome, attempt.status_code])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['succeeded', 200],
    ]);
    expect(delivery!.attempts[0]!.error).toContain('500');
    expect(delivery!.attempts[2]!.error).toBeNull();
    for (const attempt of delivery!.attempts) expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('disables a v2 subscription that answers 410; later events are recorded as suppressed', async () => {
    const { receiver, server } = await setup(() => 410);
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Gone');
    await waitUntil(
      async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'failed',
      'failed',
    );

    const current = await readBody(await server.v2(`/webhooks/subscriptions/${subscription.id}`));
    expect(current.data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    const [failed] = await deliveriesOf(server, subscription.id);
    expect(failed!.attempts).toEqual([expect.objectContaining({ outcome: 'failed', status_code: 410 })]);

    await createTask(server, 'lst_todo', 'Unheard');
    const deliveries = await deliveriesOf(server, subscription.id);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['suppressed', 'failed']);
    await sleep(100);
    expect(receiver.requests).toHaveLength(1);
  });

  it('deletes a v1 subscription whose hook answers 410', async () => {
    const { receiver, server } = await setup(() => 410);
    const token = await v1Token(server);
    const subscribed = await server.v1('/items/subscribe', {
      method: 'POST',
      token,
      body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: receiver.url, apiService: 'zapier' },
    });
    const { id } = await readBody(subscribed);
    await createTask(server, 'lst_todo', 'First');
    await waitUntil(() => receiver.requests.length === 1, 'the hook');

    await waitUntil(async () => {
      const unsubscribe = await server.v1('/items/unsubscribe', {
        method: 'POST',
        token,
        body: { subscriptionId: id },
      });
      return unsubscribe.status === 404;
    }, 'the subscription to be deleted');
    await createTask(server, 'lst_todo', 'Second');
    await sleep(100);
    expect(receiver.requests).toHaveLength(1);
  });

  it('records events for a disabled subscription as suppressed, unsent, and replays them on request', async () => {
    const { receiver, server } = await setup(() => 200);
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    const disable = await server.v2(`/webhooks/subscriptions/${subscription.id}`, {
      method: 'PATCH',
      body: { status: 'disabled' },
    });
    expect(disable.status).toBe(200);

    await createTask(server, 'lst_todo', 'While paused');
    const [suppressed] = await deliveriesOf(server, subscription.id, '?status=suppressed');
    expect(suppressed).toMatchObject({
      status: 'suppressed',
      attempt_count: 0,
      next_attempt_at: null,
      attempts: [],
    });
    await sleep(100);
    expect(receiver.requests).toHaveLength(0);

    const replay = await server.v2(`/webhooks/deliveries/${suppressed!.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(200);
    const replayed = WebhookDelivery.parse((await readBody(replay)).data);
    expect(replayed.id).not.toBe(suppressed!.id);
    expect(replayed).toMatchObject({ event_id: suppressed!.event_id, subscription_id: subscription.id });

    await waitUntil(() => receiver.requests.length === 1, 'the replay');
    const [request] = receiver.requests;
    expect(request!.headers[EVENT_ID_HEADER]).toBe(suppressed!.event_id);
    expect(request!.headers[DELIVERY_ID_HEADER]).toBe(replayed.id);
    const signature = request!.headers[SIGNATURE_HEADER] as string;
    expect(
      verifySignature({ payload: request!.body, header: signature, secrets: subscription.secret }).ok,
    ).toBe(true);

    // The receiver may answer before the worker has recorded its answer.
    await waitUntil(
      async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'delivered',
      'the replay recorded',
    );
    const log = await deliveriesOf(server, subscription.id);
    expect(log.map((delivery) => [delivery.id, delivery.status])).toEqual([
      [replayed.id, 'delivered'],
      [suppressed!.id, 'suppressed'],
    ]);
    // Another user cannot replay it.
    const bob = await server.v2(`/webhooks/deliveries/${suppressed!.id}/replay`, {
      method: 'POST',
      key: 'tw_test_bob_full_0123456789abcdef',
    });
    expect(bob.status).toBe(404);
  });

  it('disables a subscription after five days of nothing but failures; a success resets the streak', async () => {
    const clock = shiftableClock();
    let status = 500;
    const { receiver, server } = await setup(() => status, { now: clock.now });
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    const state = async () =>
      (await readBody(await server.v2(`/webhooks/subscriptions/${subscription.id}`))).data;
    const attempts = async () =>
      (await deliveriesOf(server, subscription.id)).flatMap((delivery) => delivery.attempts).length;
    const latestAttempted = async () =>
      ((await deliveriesOf(server, subscription.id))[0]?.attempt_count ?? 0) >= 1;

    // Day 0: the streak starts.
    await createTask(server, 'lst_todo', 'Day 0');
    await waitUntil(async () => (await attempts()) >= 1, 'a first failure');

    // Day 3: the receiver recovers; the retry (due, by the clock) succeeds and resets the streak.
    status = 200;
    clock.advance(3 * DAY);
    await createTask(server, 'lst_todo', 'Day 3');
    await waitUntil(
      async () =>
        (await deliveriesOf(server, subscription.id)).every((delivery) => delivery.status === 'delivered'),
      'both delivered',
    );

    // Day 6: failing again; five days after the first failure of this streak, not of the first one.
    status = 500;
    clock.advance(3 * DAY);
    await createTask(server, 'lst_todo', 'Day 6');
    await waitUntil(latestAttempted, 'a failure on day 6');
    expect(await state()).toMatchObject({ status: 'active' });

    clock.advance(4 * DAY);
    await createTask(server, 'lst_todo', 'Day 10');
    await waitUntil(latestAttempted, 'a failure on day 10');
    expect(await state()).toMatchObject({ status: 'active' });

    // Day 11, past five days of failures: the next failed attempt disables it.
    clock.advance(DAY + 60_000);
    await createTask(server, 'lst_todo', 'Day 11');
    await waitUntil(async () => (await state()).status === 'disabled', 'disabled');
    expect(await state()).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });

    await createTask(server, 'lst_todo', 'Day 12');
    const [latest] = await deliveriesOf(server, subscription.id);
    expect(latest!.status).toBe('suppressed');
  });

  it('delivers everything once a receiver that was down comes back', async () => {
    const { receiver, server } = await setup(() => 200);
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await receiver.close();

    const titles = ['Down 1', 'Down 2', 'Down 3'];
    for (const title of titles) await createTask(server, 'lst_todo', title);
    await waitUntil(
      async () =>
        (await deliveriesOf(server, subscription.id)).every((delivery) => delivery.attempt_count >= 3),
      'three refused attempts each',
    );
    await receiver.listen();

    await waitUntil(() => receiver.requests.length >= 3, 'all three events', 10_000);
    await sleep(100);
    const received = receiver.requests.map((request) => JSON.parse(request.body));
    expect(received.map((event) => event.data.task.title).sort()).toEqual(titles);
    expect(new Set(received.map((event) => event.id)).size).toBe(3);

    const deliveries = await deliveriesOf(server, subscription.id);
    for (const delivery of deliveries) {
      expect(delivery.status).toBe('delivered');
      const failures = delivery.attempts.filter((attempt) => attempt.outcome === 'failed');
      expect(failures.length).toBeGreaterThanOrEqual(3);
      expect(failures[0]).toMatchObject({
        status_code: null,
        error: expect.stringContaining('ECONNREFUSED'),
      });
    }
  });
});
