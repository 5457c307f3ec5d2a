/**
 * The app against a live reference server: subscribe a hook through appTester, cause the event, receive
 * the delivery on a local receiver, feed it to `perform`, unsubscribe and see nothing more delivered.
 */
import { EVENT_ID_HEADER, type LegacyClient, type ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { WebhookReceiver } from '../../../test/e2e/test/helpers/receiver.ts';
import { App, appTester, type Operation, rejection, zapierMessage } from '../helpers/auth.ts';
import {
  deliveryBundle,
  IDS,
  seededLegacyClient,
  startConnectedServer,
  startReceiver,
  THREADS,
} from '../helpers/live.ts';
import { triggerOperation } from '../helpers/triggers.ts';

const op = triggerOperation;

let server: LiveServer;
let authData: Record<string, string>;
let service: ThreadworkClient;
let receiver: WebhookReceiver;
/** A second subscription on the same events, made outside the app: when it has the event, so would the app's. */
let control: WebhookReceiver;
let legacy: LegacyClient;

beforeAll(async () => {
  ({ server, authData, service } = await startConnectedServer());
  receiver = await startReceiver();
  control = await startReceiver();
  legacy = seededLegacyClient(server.origin);
});

afterAll(async () => {
  await receiver?.close();
  await control?.close();
  await server?.stop();
});

/** Settles after `control` got a delivery whose JSON matches, plus a moment for any other delivery of it. */
async function settleAfter(match: (json: Record<string, unknown>) => boolean): Promise<void> {
  await control.waitFor((request) => match(request.json as Record<string, unknown>));
  await new Promise((resolve) => setTimeout(resolve, 300));
}

describe('v1 REST hooks', () => {
  it('new_task_in_list: subscribe, deliver, perform, unsubscribe, nothing more', async () => {
    const subscription = await appTester(op('new_task_in_list', 'performSubscribe'), {
      authData,
      inputData: { list_id: IDS.todo },
      targetUrl: `${receiver.url}/in-list`,
    });
    expect(subscription).toMatchObject({ action: 'createOnList', entityId: IDS.todo });
    await legacy.subscribe('items', {
      action: 'createOnList',
      entityId: IDS.todo,
      webhookURL: `${control.url}/in-list`,
    });

    const created = await service.tasks.create({ list_id: IDS.todo, title: 'Hooked task' });
    const delivery = await receiver.waitFor((request) => (request.json as { id?: string }).id === created.id);
    const [output] = await appTester(op('new_task_in_list', 'perform'), {
      authData,
      inputData: { list_id: IDS.todo },
      ...deliveryBundle(delivery),
    });
    expect(output).toMatchObject({ task_id: created.id, title: 'Hooked task', listId: IDS.todo });
    expect(output.id).toBe(delivery.headers[EVENT_ID_HEADER]);

    await appTester(op('new_task_in_list', 'performUnsubscribe'), {
      authData,
      inputData: { list_id: IDS.todo },
      subscribeData: subscription,
    });
    const before = receiver.received.filter((request) => request.path.endsWith('/in-list')).length;
    const after = await service.tasks.create({ list_id: IDS.todo, title: 'Not hooked' });
    await settleAfter((json) => json['id'] === after.id);
    expect(receiver.received.filter((request) => request.path.endsWith('/in-list'))).toHaveLength(before);
  });

  it('task_moved_to_list: a task moved twice triggers twice, with distinct ids', async () => {
    const subscription = await appTester(op('task_moved_to_list', 'performSubscribe'), {
      authData,
      inputData: { list_id: IDS.doing },
      targetUrl: `${receiver.url}/moved`,
    });
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Moved around' });
    await service.tasks.move(task.id, { list_id: IDS.doing });
    await service.tasks.move(task.id, { list_id: IDS.todo });
    await service.tasks.move(task.id, { list_id: IDS.doing });
    const moved = (request: { path: string; json: unknown }) =>
      request.path.endsWith('/moved') && (request.json as { id?: string }).id === task.id;
    await receiver.waitFor(moved);
    for (let turn = 0; turn < 100 && receiver.received.filter(moved).length < 2; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const deliveries = receiver.received.filter(moved);
    expect(deliveries).toHaveLength(2);
    const outputs = await Promise.all(
      deliveries.map(async (delivery) => {
        const [output] = await appTester(op('task_moved_to_list', 'perform'), {
          authData,
          ...deliveryBundle(delivery),
        });
        return output;
      }),
    );
    expect(outputs.map((output) => output.task_id)).toEqual([task.id, task.id]);
    expect(new Set(outputs.map((output) => output.id)).size).toBe(2);
    await appTester(op('task_moved_to_list', 'performUnsubscribe'), {
      authData,
      subscribeData: subscription,
    });
  });

  it('task items carry what later steps need: the thread, current names, labelled custom fields; a gone task keeps the v1 fields', async () => {
    const subscription = await appTester(op('task_completed', 'performSubscribe'), {
      authData,
      inputData: { board_id: IDS.board },
      targetUrl: `${receiver.url}/completed`,
    });
    const task = await service.tasks.create({ list_id: IDS.doing, thread_id: THREADS.lunch.id });
    await service.tasks.update(task.id, {
      custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityHigh] }],
    });
    await service.tasks.complete(task.id);
    const delivery = await receiver.waitFor(
      (request) => request.path.endsWith('/completed') && (request.json as { id?: string }).id === task.id,
    );
    const bundle = { authData, inputData: { board_id: IDS.board }, ...deliveryBundle(delivery) };
    const [output] = await appTester(op('task_completed', 'perform'), bundle);
    expect(output).toMatchObject({
      task_id: task.id,
      completed: true,
      thread_ids: [THREADS.lunch.id],
      first_thread_id: THREADS.lunch.id,
      board_name: 'Roadmap',
      list_name: 'Doing',
      custom_fields: [
        { field_id: IDS.priority, value: [IDS.priorityHigh], name: 'Priority', labels: ['High'] },
      ],
    });
    // The first thread's id is what Reply to Email Thread takes: the reply lands on that very thread.
    await appTester(
      (App.creates as unknown as Record<string, { operation: { perform: Operation } }>)['reply_to_thread']!
        .operation.perform,
      { authData, inputData: { thread_id: output.first_thread_id, body: 'Done: it is on its way.' } },
    );
    const thread = await service.emailThreads.get(THREADS.lunch.id, { include: 'messages' });
    expect(thread.messages?.at(-1)).toMatchObject({ labels: expect.arrayContaining(['SENT']) });

    // The same delivery once the task is deleted: the v1 fields alone, the added keys empty.
    await service.tasks.delete(task.id);
    const [gone] = await appTester(op('task_completed', 'perform'), bundle);
    expect(gone).toEqual({
      ...(delivery.json as object),
      id: output.id,
      task_id: task.id,
      thread_ids: [],
      first_thread_id: null,
      board_name: null,
      list_name: null,
      custom_fields: [],
    });
    await appTester(op('task_completed', 'performUnsubscribe'), { authData, subscribeData: subscription });
  });

  it('performList shows real items, newest first', async () => {
    const items = await appTester(op('new_task_on_board', 'performList'), {
      authData,
      inputData: { board_id: IDS.board },
    });
    expect(items.length).toBeGreaterThan(1);
    const dates = items.map((item: { dateCreated: string }) => Date.parse(item.dateCreated));
    expect(dates).toEqual(dates.toSorted((a: number, b: number) => b - a));
    expect(items.length).toBeLessThanOrEqual(10);
    // A sample's id stands for its event, as a delivery's does; the task is `task_id`.
    expect(items[0].id).not.toBe(items[0].task_id);
    expect(items[0].id).toMatch(/^evt_/);
    // Samples carry the keys a delivery adds, read from the tasks' v2 views.
    for (const item of items) {
      const task = await service.tasks.get(item.task_id);
      expect(item).toMatchObject({
        thread_ids: task.thread_ids,
        first_thread_id: task.thread_ids[0] ?? null,
        board_name: task.board_name,
        list_name: task.list_name,
      });
      expect(item.custom_fields.map((value: { field_id: string }) => value.field_id)).toEqual(
        task.custom_fields.map((value) => value.field_id),
      );
    }
  });
});

describe('v2 webhook: new_thread_reply', () => {
  it('verifies a real signed delivery, rejects a tampered one, and stops after unsubscribe', async () => {
    const subscribeData = await appTester(op('new_thread_reply', 'performSubscribe'), {
      authData,
      inputData: { scope: 'all' },
      targetUrl: `${receiver.url}/reply`,
    });
    expect(subscribeData.secret).toEqual(expect.any(String));
    const controlHook = await service.webhooks.create({
      target_url: `${control.url}/reply`,
      events: ['thread.reply_received'],
      filters: { scope: 'all' },
    });

    const inbound = async (text: string) => {
      const answer = await fetch(`${server.origin}/_control/inbound-message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mailbox: 'ada@example.com',
          thread_id: THREADS.roof.id,
          message: {
            from: THREADS.roof.from,
            to: [{ email: 'ada@example.com', name: 'Ada Lovelace' }],
            cc: [],
            subject: `Re: ${THREADS.roof.subject}`,
            date: new Date().toISOString(),
            body_text: text,
            labels: ['INBOX', 'UNREAD'],
          },
        }),
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { thread_id: string; message_id: string };
    };

    const sent = await inbound('The roof can start Monday.');
    const delivery = await receiver.waitFor(
      (request) =>
        request.path.endsWith('/reply') &&
        (request.json as { data?: { message?: { id?: string } } }).data?.message?.id === sent.message_id,
    );
    const bundle = { authData, inputData: { scope: 'all' }, subscribeData, ...deliveryBundle(delivery) };
    const [reply] = await appTester(op('new_thread_reply', 'perform'), bundle);
    expect(reply).toMatchObject({
      thread_id: THREADS.roof.id,
      message_id: sent.message_id,
      from_email: THREADS.roof.from.email,
      linked_task_ids: [IDS.deal],
    });

    const tampered = {
      ...bundle,
      rawRequest: { ...bundle.rawRequest, content: bundle.rawRequest.content.replace('Monday', 'Sunday') },
    };
    const error = await rejection(appTester(op('new_thread_reply', 'perform'), tampered));
    expect(zapierMessage(error)).toContain('Rejected a delivery');

    await appTester(op('new_thread_reply', 'performUnsubscribe'), { authData, subscribeData });
    const before = receiver.received.filter((request) => request.path.endsWith('/reply')).length;
    const later = await inbound('One more thing.');
    await settleAfter(
      (json) => (json['data'] as { message?: { id?: string } } | undefined)?.message?.id === later.message_id,
    );
    expect(receiver.received.filter((request) => request.path.endsWith('/reply'))).toHaveLength(before);
    await service.webhooks.delete(controlHook.id);
  });
});
