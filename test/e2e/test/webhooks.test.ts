import { type LegacyClient, ThreadworkClient } from '@threadwork/shared';
import { V1Item } from '@threadwork/shared/schemas';
import {
  constructEvent,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  WebhookSignatureError,
} from '@threadwork/shared/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type LiveServer, startLiveServer } from './helpers/live-server.ts';
import {
  eventually,
  type ReceivedRequest,
  type Responder,
  singleHeader,
  startReceiver,
  type WebhookReceiver,
} from './helpers/receiver.ts';
import { CREDENTIALS, IDS, seededLegacyClient } from './helpers/seed.ts';

let server: LiveServer | undefined;
let client: ThreadworkClient;
let legacy: LegacyClient;

beforeAll(async () => {
  server = await startLiveServer();
  client = new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full });
  legacy = seededLegacyClient(server.origin);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

/** What each test set up, taken down after it so that no test receives another's deliveries. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond?: Responder): Promise<WebhookReceiver> {
  const started = await startReceiver(respond);
  cleanups.push(() => started.close());
  return started;
}

async function subscribeV2(targetUrl: string) {
  const subscription = await client.webhooks.create({ target_url: targetUrl, events: ['task.created'] });
  cleanups.push(() => client.webhooks.delete(subscription.id));
  return subscription;
}

function isDeliveryOfTask(taskId: string) {
  return (request: ReceivedRequest) => {
    const body = request.json as { data?: { task?: { id?: unknown } } } | undefined;
    return body?.data?.task?.id === taskId;
  };
}

describe('v2 webhooks', () => {
  it('delivers task.created, signed with the subscription secret, with event and delivery ids', async () => {
    const hooks = await receiver();
    const subscription = await subscribeV2(hooks.url);
    expect(subscription).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      target_url: hooks.url,
      events: ['task.created'],
      secret: expect.any(String),
    });

    const task = await client.tasks.create({ list_id: IDS.todo, title: 'Hook me' });
    const request = await hooks.waitFor(isDeliveryOfTask(task.id));

    expect(request.method).toBe('POST');
    expect(singleHeader(request.headers, 'content-type')).toMatch(/^application\/json/);
    const signature = singleHeader(request.headers, SIGNATURE_HEADER);
    const eventId = singleHeader(request.headers, EVENT_ID_HEADER);
    const deliveryId = singleHeader(request.headers, DELIVERY_ID_HEADER);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(eventId).toBeTruthy();
    expect(deliveryId).toBeTruthy();

    const event = constructEvent(request.rawBody, signature, subscription.secret);
    expect(event).toMatchObject({ id: eventId, type: 'task.created' });
    if (event.type !== 'task.created') throw new Error(`unexpected ${event.type}`);
    expect(event.data.task).toMatchObject({ id: task.id, title: 'Hook me', list_id: IDS.todo });

    // The same bytes do not verify with another secret.
    expect(() => constructEvent(request.rawBody, signature, 'not-the-secret')).toThrow(WebhookSignatureError);

    // The delivery log has it, by the id the receiver saw.
    const log = await eventually(
      () => client.webhooks.listDeliveries(subscription.id),
      (page) => page.data.some((delivery) => delivery.id === deliveryId && delivery.status === 'delivered'),
    );
    expect(log.data.find((delivery) => delivery.id === deliveryId)).toMatchObject({
      subscription_id: subscription.id,
      event_id: eventId,
      event_type: 'task.created',
      status: 'delivered',
      attempt_count: 1,
    });
  });

  it('retries a failing receiver: 500, 500, then 200 on the third attempt, all in the delivery log', async () => {
    const hooks = await receiver((_request, index) => (index < 2 ? 500 : 200));
    const subscription = await subscribeV2(hooks.url);

    const task = await client.tasks.create({ list_id: IDS.todo, title: 'Retry me' });
    const accepted = await hooks.waitFor((request) => request.answeredWith === 200);

    expect(hooks.received.map((request) => request.answeredWith)).toEqual([500, 500, 200]);
    expect(hooks.received.every(isDeliveryOfTask(task.id))).toBe(true);
    const deliveryIds = new Set(hooks.received.map((r) => singleHeader(r.headers, DELIVERY_ID_HEADER)));
    const eventIds = new Set(hooks.received.map((r) => singleHeader(r.headers, EVENT_ID_HEADER)));
    expect(deliveryIds.size).toBe(1);
    expect(eventIds.size).toBe(1);
    const signature = singleHeader(accepted.headers, SIGNATURE_HEADER);
    expect(constructEvent(accepted.rawBody, signature, subscription.secret).type).toBe('task.created');

    const log = await eventually(
      () => client.webhooks.listDeliveries(subscription.id),
      (page) => page.data[0]?.status === 'delivered',
    );
    expect(log.data).toHaveLength(1);
    const [delivery] = log.data;
    expect(delivery).toMatchObject({
      id: [...deliveryIds][0],
      status: 'delivered',
      attempt_count: 3,
      next_attempt_at: null,
    });
    expect(delivery?.attempts.map((attempt) => [attempt.outcome, attempt.status_code])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['succeeded', 200],
    ]);
  });

  it('after a secret rotation, the next delivery verifies with the new secret alone and the old one alone', async () => {
    const hooks = await receiver();
    const subscription = await subscribeV2(hooks.url);
    const rotated = await client.webhooks.rotateSecret(subscription.id);
    expect(rotated.id).toBe(subscription.id);
    expect(rotated.secret).not.toBe(subscription.secret);
    const keepsSigningFor = Date.parse(rotated.previous_secret_expires_at) - Date.now();
    expect(keepsSigningFor).toBeGreaterThan(23 * 60 * 60 * 1000);
    expect(keepsSigningFor).toBeLessThanOrEqual(24 * 60 * 60 * 1000);

    const task = await client.tasks.create({ list_id: IDS.todo, title: 'Rotate me' });
    const request = await hooks.waitFor(isDeliveryOfTask(task.id));
    const signature = singleHeader(request.headers, SIGNATURE_HEADER);
    expect(parseSignatureHeader(signature ?? '')?.signatures).toHaveLength(2);

    expect(constructEvent(request.rawBody, signature, rotated.secret).data).toMatchObject({
      task: { id: task.id },
    });
    expect(constructEvent(request.rawBody, signature, subscription.secret).data).toMatchObject({
      task: { id: task.id },
    });
    expect(() => constructEvent(request.rawBody, signature, `${rotated.secret}x`)).toThrow(
      WebhookSignatureError,
    );
  });
});

describe('v1 hooks', () => {
  it('a createOnList subscription receives the created Item as the body, unsigned', async () => {
    const hooks = await receiver();
    const subscription = await legacy.subscribe('items', {
      email: CREDENTIALS.legacy.email,
      action: 'createOnList',
      entityId: IDS.doing,
      webhookURL: hooks.url,
      apiService: 'zapier',
    });
    cleanups.push(() => legacy.unsubscribe('items', subscription.id));

    const { id } = await legacy.createItem({ listId: IDS.doing, title: 'Hook me on v1', notes: 'v1 body' });
    const request = await hooks.waitFor((received) => (received.json as { id?: unknown })?.id === id);

    expect(request.method).toBe('POST');
    expect(singleHeader(request.headers, 'content-type')).toMatch(/^application\/json/);
    expect(singleHeader(request.headers, EVENT_ID_HEADER)).toBeTruthy();
    expect(request.headers[SIGNATURE_HEADER]).toBeUndefined();
    const item = V1Item.parse(request.json);
    expect(item).toMatchObject({
      id,
      title: 'Hook me on v1',
      notes: 'v1 body',
      listId: IDS.doing,
      listName: 'Doing',
      boardId: IDS.board,
      boardName: 'Roadmap',
      completed: false,
      assignedTo: '',
      assignedToEmail: '',
    });
    // Exactly the Item, nothing wrapped around it.
    expect(Object.keys(request.json as object).sort()).toEqual(
      [
        'id',
        'title',
        'boardName',
        'boardId',
        'listName',
        'listId',
        'dateCreated',
        'dueDate',
        'notes',
        'firstThread',
        'completed',
        'assignedTo',
        'assignedToEmail',
      ].sort(),
    );
  });
});
