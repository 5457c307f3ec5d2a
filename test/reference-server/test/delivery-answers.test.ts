// Webhook delivery (docs/webhooks.md, "Delivery"): each attempt logs the receiver's answer as Stripe shows
// it (its content-type and the first 4 KiB of its body, never the request's signature), and once any
// delivery of an event to a subscription succeeds, the other pending deliveries of that event to that
// subscription stop as `suppressed`: a replay that succeeds ends the original's retries.
import { DeliveryAttempt } from '@threadwork/shared/schemas';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER } from '@threadwork/shared/webhooks';
import { describe, expect, it } from 'vitest';
import { readBody } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  deliveriesOf,
  type ReceivedRequest,
  type Responder,
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  v1Token,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

type Attempt = DeliveryAttempt & { response_content_type?: string | null; response_body?: string | null };

describe('webhook delivery: the receiver’s answer in the attempt log', () => {
  const cleanup = closeAfterEach();
  async function setup(respond: Responder) {
    const receiver = await startReceiver(respond);
    const server = await startWebhookServer();
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    return { receiver, server, subscription };
  }

  /** The attempts of the subscription's newest delivery once it has `count` of them. */
  async function attemptsOf(server: WebhookTestServer, subscriptionId: string, count: number) {
    let attempts: Attempt[] = [];
    await waitUntil(async () => {
      attempts = ((await deliveriesOf(server, subscriptionId))[0]?.attempts ?? []) as Attempt[];
      return attempts.length >= count;
    }, `${count} attempt(s)`);
    for (const attempt of attempts) DeliveryAttempt.parse(attempt);
    return attempts;
  }

  it('records the answer’s content-type and body, as they came', async () => {
    const { server, subscription } = await setup(() => ({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"received":true,"note":"déjà vu ✓"}',
    }));
    await createTask(server, 'lst_todo', 'Answered');
    const [attempt] = await attemptsOf(server, subscription.id, 1);
    expect(attempt).toMatchObject({
      outcome: 'succeeded',
      status_code: 200,
      response_content_type: 'application/json; charset=utf-8',
      response_body: '{"received":true,"note":"déjà vu ✓"}',
    });
  });

  it('keeps the first 4 KiB of a longer body, cut between characters, for every attempt', async () => {
    const ascii = 'x'.repeat(5 * 1024);
    // A three-byte character across the 4,096-byte mark: the cut falls before it.
    const straddling = `${'a'.repeat(4095)}€${'b'.repeat(1000)}`;
    const { server, subscription } = await setup((_request, index) => ({
      status: index === 0 ? 500 : 200,
      headers: { 'content-type': 'text/plain' },
      body: index === 0 ? ascii : straddling,
    }));
    await createTask(server, 'lst_todo', 'Long answers');
    const [first, second] = await attemptsOf(server, subscription.id, 2);
    expect(first).toMatchObject({ outcome: 'failed', status_code: 500, response_content_type: 'text/plain' });
    expect(first!.response_body).toBe('x'.repeat(4096));
    expect(second).toMatchObject({ outcome: 'succeeded', status_code: 200 });
    expect(second!.response_body).toBe('a'.repeat(4095));
  });

  it('logs a binary or broken-UTF-8 body readably, without breaking the log', async () => {
    const bytes = Buffer.concat([Buffer.from([0x00, 0xff, 0xfe, 0xc3, 0x28]), Buffer.from('ok')]);
    const { server, subscription } = await setup(() => ({
      status: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    }));
    await createTask(server, 'lst_todo', 'Binary answer');
    const [attempt] = await attemptsOf(server, subscription.id, 1);
    // Each byte that is not UTF-8 (and NUL, which no text column takes) reads as U+FFFD.
    expect(attempt).toMatchObject({
      outcome: 'succeeded',
      response_content_type: 'application/octet-stream',
      response_body: '\uFFFD\uFFFD\uFFFD\uFFFD(ok',
    });
    const [delivery] = await deliveriesOf(server, subscription.id);
    expect(delivery!.status).toBe('delivered');
  });

  it('records nulls when no answer came, and an empty body as empty', async () => {
    const silent = await startReceiver();
    const closedUrl = silent.url;
    await silent.close();
    const empty = await startReceiver(() => ({ status: 204, body: '' }));
    const server = await startWebhookServer();
    cleanup(
      () => empty.close(),
      () => server.close(),
    );
    const refused = await subscribe(server, { target_url: closedUrl, events: ['task.created'] });
    const answered = await subscribe(server, { target_url: empty.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Nobody there');
    const [noAnswer] = await attemptsOf(server, refused.id, 1);
    expect(noAnswer).toMatchObject({
      outcome: 'failed',
      status_code: null,
      response_content_type: null,
      response_body: null,
    });
    expect(noAnswer!.error).toContain('ECONNREFUSED');
    const [emptyAnswer] = await attemptsOf(server, answered.id, 1);
    expect(emptyAnswer).toMatchObject({
      outcome: 'succeeded',
      status_code: 204,
      response_content_type: null,
      response_body: '',
    });
  });

  it('never stores the request’s signature, even when the receiver echoes the request', async () => {
    // An echo server: answers the request's headers (as many debugging receivers do).
    const { receiver, server, subscription } = await setup((request: ReceivedRequest) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ headers: request.headers, body: request.body }),
    }));
    await createTask(server, 'lst_todo', 'Echoed');
    const [attempt] = await attemptsOf(server, subscription.id, 1);
    const signature = receiver.requests[0]!.headers[SIGNATURE_HEADER] as string;
    const hex = /v1=([0-9a-f]{64})/.exec(signature)![1]!;
    expect(attempt!.response_body).toContain(receiver.requests[0]!.headers[EVENT_ID_HEADER]);
    expect(attempt!.response_body).toContain('[x-service-signature]');
    expect(attempt!.response_body).not.toContain(hex);
    // Nowhere in the log's rows.
    const rows = await server.ctx.db.selectFrom('webhook_delivery_attempts').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(hex);
  });
});

// Waits for retries and a held answer: longer than the default time-out.
describe('webhook delivery: a success stops the other pending deliveries of its event', {
  timeout: 20_000,
}, () => {
  const cleanup = closeAfterEach();

  /** Polls the subscription's log until `check` holds for the delivery `id`. */
  async function deliveryOnceIt(
    server: WebhookTestServer,
    subscriptionId: string,
    id: string,
    check: (delivery: Awaited<ReturnType<typeof deliveriesOf>>[number]) => boolean,
    what: string,
  ) {
    let found: Awaited<ReturnType<typeof deliveriesOf>>[number] | undefined;
    await waitUntil(
      async () => {
        found = (await deliveriesOf(server, subscriptionId)).find((delivery) => delivery.id === id);
        return found !== undefined && check(found);
      },
      what,
      10_000,
    );
    return found!;
  }

  it('a replay that succeeds while the original waits for its retry ends the original as suppressed', async () => {
    let replayId: string | null = null;
    // The original always fails; the replay is answered 200.
    const receiver = await startReceiver((request) =>
      request.headers[DELIVERY_ID_HEADER] === replayId ? 200 : 500,
    );
    const server = await startWebhookServer();
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Replay me');
    const [created] = await deliveriesOf(server, subscription.id);
    // After three failures the next retry waits 5 min, here 0.3 s.
    const original = await deliveryOnceIt(
      server,
      subscription.id,
      created!.id,
      (delivery) => delivery.attempt_count >= 3,
      'three failed attempts',
    );
    expect(original.status).toBe('pending');
    const dueAgainAt = Date.parse(original.next_attempt_at!);

    const replay = await server.v2(`/webhooks/deliveries/${original.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(200);
    replayId = (await readBody(replay)).data.id as string;
    await deliveryOnceIt(server, subscription.id, replayId, (d) => d.status === 'delivered', 'the replay');
    const sentBefore = receiver.requests.length;

    const stopped = (await deliveriesOf(server, subscription.id)).find((d) => d.id === original.id)!;
    expect(stopped).toMatchObject({ status: 'suppressed', next_attempt_at: null });
    // Past the time the original was due again: the receiver got the event once more, from the replay only.
    await sleep(Math.max(0, dueAgainAt - Date.now()) + 300);
    expect(receiver.requests.length).toBe(sentBefore);
    const byDelivery = (id: string) =>
      receiver.requests.filter((request) => request.headers[DELIVERY_ID_HEADER] === id).length;
    expect(byDelivery(replayId)).toBe(1);
    expect(byDelivery(original.id)).toBe(stopped.attempt_count);
    expect(receiver.requests.every((request) => request.headers[EVENT_ID_HEADER] === original.event_id)).toBe(
      true,
    );
    const log = await deliveriesOf(server, subscription.id);
    expect(log.map((delivery) => [delivery.id, delivery.status])).toEqual([
      [replayId, 'delivered'],
      [original.id, 'suppressed'],
    ]);
  });

  it('does not send the original’s retry while a replay of it is in flight, and then stops it', async () => {
    let replayId: string | null = null;
    let dueAgainAt = Number.POSITIVE_INFINITY;
    // The replay's answer is held until the original's retry has been due for a while.
    const receiver = await startReceiver(async (request) => {
      if (request.headers[DELIVERY_ID_HEADER] !== replayId) return 500;
      while (Date.now() < dueAgainAt + 300) await sleep(20);
      return 200;
    });
    const server = await startWebhookServer();
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Replay in flight');
    const [created] = await deliveriesOf(server, subscription.id);
    // After four failures the next retry waits 30 min, here 1.8 s: time for the replay to be in flight.
    const original = await deliveryOnceIt(
      server,
      subscription.id,
      created!.id,
      (delivery) => delivery.attempt_count >= 4,
      'four failed attempts',
    );
    dueAgainAt = Date.parse(original.next_attempt_at!);
    const replay = await server.v2(`/webhooks/deliveries/${original.id}/replay`, { method: 'POST' });
    replayId = (await readBody(replay)).data.id as string;
    await waitUntil(
      () => receiver.requests.some((request) => request.headers[DELIVERY_ID_HEADER] === replayId),
      'the replay to arrive',
    );
    const originalSent = receiver.requests.filter(
      (request) => request.headers[DELIVERY_ID_HEADER] === original.id,
    ).length;

    await deliveryOnceIt(server, subscription.id, replayId, (d) => d.status === 'delivered', 'the replay');
    const stopped = await deliveryOnceIt(
      server,
      subscription.id,
      original.id,
      (d) => d.status !== 'pending',
      'the original to settle',
    );
    expect(stopped).toMatchObject({ status: 'suppressed', next_attempt_at: null });
    await sleep(200);
    // The retry that fell due while the replay was in flight was never sent.
    expect(
      receiver.requests.filter((request) => request.headers[DELIVERY_ID_HEADER] === original.id).length,
    ).toBe(originalSent);
  });

  it('stops a v1 hook’s original the same way when its replay (from the console) succeeds', async () => {
    let replayId: string | null = null;
    const receiver = await startReceiver((request) =>
      request.headers[DELIVERY_ID_HEADER] === replayId ? 200 : 500,
    );
    const server = await startWebhookServer({ console: true });
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    const subscribed = await server.v1('/items/subscribe', {
      method: 'POST',
      token: await v1Token(server),
      body: { action: 'createOnBoard', entityId: 'brd_acme', webhookURL: receiver.url },
    });
    expect(subscribed.status).toBe(200);
    await createTask(server, 'lst_todo', 'A hooked task');
    const v1Delivery = () =>
      server.ctx.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'attempt_count'])
        .where('kind', '=', 'v1')
        .orderBy('seq')
        .execute();
    await waitUntil(async () => ((await v1Delivery())[0]?.attempt_count ?? 0) >= 3, 'three failed attempts');
    const [original] = await v1Delivery();

    const page = await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
    const token = /<meta name="console-token" content="([^"]+)">/.exec(await page.text())![1]!;
    const replay = await fetch(`${server.origin}/_console/api/deliveries/${original!.id}/replay`, {
      method: 'POST',
      headers: { 'x-console-token': token },
    });
    expect(replay.status).toBe(200);
    replayId = (await readBody(replay)).data.id as string;
    await waitUntil(
      async () => (await v1Delivery()).find((delivery) => delivery.id === replayId)?.status === 'delivered',
      'the replay delivered',
    );
    expect((await v1Delivery()).map((delivery) => [delivery.id, delivery.status])).toEqual([
      [original!.id, 'suppressed'],
      [replayId, 'delivered'],
    ]);
  });

  it('still sends a replay asked for after the event was delivered', async () => {
    const receiver = await startReceiver(() => 200);
    const server = await startWebhookServer();
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    await createTask(server, 'lst_todo', 'Delivered, then replayed');
    await waitUntil(
      async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'delivered',
      'delivered',
    );
    const [delivered] = await deliveriesOf(server, subscription.id);
    const replay = await server.v2(`/webhooks/deliveries/${delivered!.id}/replay`, { method: 'POST' });
    const replayId = (await readBody(replay)).data.id as string;
    await waitUntil(
      async () => (await deliveriesOf(server, subscription.id))[0]?.status === 'delivered',
      'the replay delivered',
    );
    expect(receiver.requests.map((request) => request.headers[DELIVERY_ID_HEADER])).toEqual([
      delivered!.id,
      replayId,
    ]);
    const log = await deliveriesOf(server, subscription.id);
    expect(log.map((delivery) => delivery.status)).toEqual(['delivered', 'delivered']);
  });
});
