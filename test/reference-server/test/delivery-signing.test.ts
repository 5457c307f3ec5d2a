import { KnownWebhookEvent, V1Item } from '@threadwork/shared/schemas';
import {
  constructEvent,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  verifySignature,
} from '@threadwork/shared/webhooks';
import { describe, expect, it } from 'vitest';
import { readBody } from './helpers/server.ts';
import {
  closeAfterEach,
  createTask,
  type Receiver,
  shiftableClock,
  startReceiver,
  startWebhookServer,
  subscribe,
  v1Token,
  waitUntil,
} from './webhooks-support.ts';

const DAY = 24 * 3600_000;

describe('webhook delivery: signatures and headers', () => {
  const cleanup = closeAfterEach();
  async function setup(options: Parameters<typeof startWebhookServer>[0] = {}) {
    const receiver = await startReceiver();
    const server = await startWebhookServer(options);
    cleanup(
      () => receiver.close(),
      () => server.close(),
    );
    return { receiver, server };
  }
  const header = (request: Receiver['requests'][number], name: string) => request.headers[name] as string;

  it('signs each delivery over the exact bytes sent, verifiable with the shared helpers', async () => {
    const { receiver, server } = await setup();
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    const task = await createTask(server, 'lst_todo', 'Signed');
    await waitUntil(() => receiver.requests.length === 1, 'the delivery');

    const [request] = receiver.requests;
    expect(request!.headers['content-type']).toBe('application/json');
    expect(header(request!, DELIVERY_ID_HEADER)).toMatch(/^dlv_/);
    const verified = verifySignature({
      payload: request!.body,
      header: header(request!, SIGNATURE_HEADER),
      secrets: subscription.secret,
    });
    expect(verified.ok).toBe(true);
    const event = constructEvent(request!.body, header(request!, SIGNATURE_HEADER), subscription.secret);
    const known = KnownWebhookEvent.parse(event);
    expect(known.type).toBe('task.created');
    expect(known.id).toBe(header(request!, EVENT_ID_HEADER));
    expect(known.id).toMatch(/^evt_/);
    if (known.type === 'task.created')
      expect(known.data.task).toMatchObject({ id: task.id, title: 'Signed' });

    // The signature covers the body: one changed byte fails it.
    const tampered = request!.body.replace('Signed', 'Signeb');
    expect(
      verifySignature({
        payload: tampered,
        header: header(request!, SIGNATURE_HEADER),
        secrets: subscription.secret,
      }).ok,
    ).toBe(false);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const clock = shiftableClock();
    const { receiver, server } = await setup({ now: clock.now });
    const subscription = await subscribe(server, { target_url: receiver.url, events: ['task.created'] });
    const rotated = await readBody(
      await server.v2(`/webhooks/subscriptions/${subscription.id}/rotate-secret`, { method: 'POST' }),
    );
    const newSecret = rotated.data.secret as string;

    const sendTest = async (expected: number) => {
      const response = await server.v2(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' });
      expect(response.status).toBe(200);
      await waitUntil(() => receiver.requests.length === expected, `test delivery ${expected}`);
      return receiver.requests[expected - 1]!;
    };
    const verifyWith = (request: Receiver['requests'][number], secret: string) =>
      verifySignature({
        payload: request.body,
        header: header(request, SIGNATURE_HEADER),
        secrets: secret,
        now: () => clock.now().getTime(),
      }).ok;

    const during = await sendTest(1);
    expect(parseSignatureHeader(header(during, SIGNATURE_HEADER))!.signatures).toHaveLength(2);
    expect(verifyWith(during, subscription.secret)).toBe(true);
    expect(verifyWith(during, newSecret)).toBe(true);
    expect(
      verifySignature({
        payload: during.body,
        header: header(during, SIGNATURE_HEADER),
        secrets: 'whsec_other',
        now: () => clock.now().getTime(),
      }).ok,
    ).toBe(false);

    clock.advance(DAY + 60_000);
    const after = await sendTest(2);
    expect(parseSignatureHeader(header(after, SIGNATURE_HEADER))!.signatures).toHaveLength(1);
    expect(verifyWith(after, subscription.secret)).toBe(false);
    expect(verifyWith(after, newSecret)).toBe(true);
  });

  it('gives every event its own id, on v2 deliveries and v1 hooks alike (two moves of one task differ)', async () => {
    const { receiver, server } = await setup();
    const hooks = await startReceiver();
    cleanup(() => hooks.close());
    await subscribe(server, { target_url: receiver.url, events: ['task.moved'] });
    const token = await v1Token(server);
    const hook = await server.v1('/lists/subscribe', {
      method: 'POST',
      token,
      body: { action: 'movedToList', entityId: 'lst_doing', webhookURL: hooks.url, apiService: 'zapier' },
    });
    expect(hook.status).toBe(200);

    const task = await createTask(server, 'lst_todo', 'Moving');
    for (const listId of ['lst_doing', 'lst_done', 'lst_doing']) {
      const moved = await server.v2(`/tasks/${task.id}/move`, { method: 'POST', body: { list_id: listId } });
      expect(moved.status).toBe(200);
    }
    await waitUntil(
      () => receiver.requests.length === 3 && hooks.requests.length === 2,
      'three moves and two hooks',
    );

    const v2Ids = receiver.requests.map((request) => header(request, EVENT_ID_HEADER));
    expect(new Set(v2Ids).size).toBe(3);
    const v1Ids = hooks.requests.map((request) => header(request, EVENT_ID_HEADER));
    expect(v1Ids.every((id) => /^evt_/.test(id))).toBe(true);
    expect(v1Ids[0]).not.toBe(v1Ids[1]);

    for (const request of hooks.requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers[SIGNATURE_HEADER]).toBeUndefined();
      expect(header(request, DELIVERY_ID_HEADER)).toMatch(/^dlv_/);
      const item = V1Item.parse(JSON.parse(request.body));
      expect(item).toMatchObject({ id: task.id, title: 'Moving', listId: 'lst_doing', boardId: 'brd_acme' });
    }
    // Deliveries run concurrently, so arrival order is not asserted.
    const moves = receiver.requests.map((request) => JSON.parse(request.body).data);
    expect(moves.map((data) => `${data.from_list_id}>${data.to_list_id}`).sort()).toEqual([
      'lst_doing>lst_done',
      'lst_done>lst_doing',
      'lst_todo>lst_doing',
    ]);
  });
});
