/**
 * Five whole Zaps as a Zap builder sets them up, each step run twice (Zapier's Replay of the run), with the
 * steps talking to the service through a loopback proxy that fails answers after the service acted (a 502
 * with a gateway's page, a dropped connection, a hang). The trigger is real: a hook subscribed through the
 * app, the event caused in the service, its delivery fed to `perform`. After each run the service's own
 * state is read: no duplicate, no wrong record.
 */
import type { ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { WebhookReceiver } from '../../../test/e2e/test/helpers/receiver.ts';
import { setRetryTimes } from '../../src/lib/run.ts';
import { operationOf } from '../creates/support.ts';
import { appTester, type Operation, rejection, zapierMessage } from '../helpers/auth.ts';
import { deliveryBundle, IDS, startConnectedServer, startReceiver } from '../helpers/live.ts';
import { type FaultyProxy, startFaultyProxy, writes } from '../helpers/proxy.ts';
import { triggerOperation } from '../helpers/triggers.ts';

let server: LiveServer;
let service: ThreadworkClient;
let receiver: WebhookReceiver;
let proxy: FaultyProxy;
let authData: Record<string, string>;
/** The connection as the steps use it: every request through the proxy. */
let viaProxy: Record<string, string>;

beforeAll(async () => {
  ({ server, authData, service } = await startConnectedServer({ testControl: true }));
  receiver = await startReceiver();
  proxy = await startFaultyProxy(server.origin);
  viaProxy = { ...authData, origin: proxy.origin };
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await receiver?.close();
  await server?.stop();
});

type Item = Record<string, unknown> & { id: string };

const step = (kind: 'creates' | 'searches', key: string, inputData: Record<string, unknown>) =>
  appTester(operationOf(kind, key).perform as Operation, { authData: viaProxy, inputData });

/** Turns a Zap on (subscribes its trigger through the app), and hands its deliveries to `perform`. */
async function zap(key: string, inputData: Record<string, unknown>) {
  const path = `/${key}-${Math.random().toString(36).slice(2)}`;
  const subscribeData = await appTester(triggerOperation(key, 'performSubscribe'), {
    authData,
    inputData,
    targetUrl: `${receiver.url}${path}`,
  });
  return {
    /** The trigger items of the first delivery matching `match`, as `perform` outputs them. */
    trigger: async (match: (json: Record<string, unknown>) => boolean): Promise<Item[]> => {
      const delivery = await receiver.waitFor(
        (request) => request.path.endsWith(path) && match(request.json as Record<string, unknown>),
      );
      return appTester(triggerOperation(key, 'perform'), {
        authData,
        inputData,
        subscribeData,
        ...deliveryBundle(delivery),
      });
    },
    off: () => appTester(triggerOperation(key, 'performUnsubscribe'), { authData, inputData, subscribeData }),
  };
}

/** An inbound message to ada's mailbox (a new thread unless `threadId`). */
async function inbound(subject: string, threadId?: string) {
  const answer = await fetch(`${server.origin}/_control/inbound-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      mailbox: 'ada@example.com',
      ...(threadId === undefined ? {} : { thread_id: threadId }),
      message: { from: { email: 'bob@stone.test', name: 'Bob Stone' }, subject, body_text: subject },
    }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { thread_id: string; message_id: string };
}

async function tasksIn(listId: string, title?: string) {
  const found = [];
  for await (const task of service.tasks.list({ list_id: listId })) {
    if (title === undefined || task.title === title) found.push(task);
  }
  return found;
}

async function sentOn(threadId: string) {
  const thread = await service.emailThreads.get(threadId, { include: 'messages' });
  return (thread.messages ?? []).filter((message) => message.labels.includes('SENT'));
}

describe('five Zaps, each step twice, through a proxy that fails answers', () => {
  it('New Task in List → Create Task on another list (Only Once Per: the Event ID); the 502 answer is retried', async () => {
    const on = await zap('new_task_in_list', { list_id: IDS.todo });
    const title = 'Zap 1: copy me to Doing';
    await service.tasks.create({ list_id: IDS.todo, title });
    const [item] = await on.trigger((json) => json['title'] === title);
    for (let run = 0; run < 2; run++) {
      proxy.fail({ fault: 'bad-gateway', when: writes, times: 1 });
      await step('creates', 'create_task', {
        list_id: IDS.doing,
        title: item!['title'],
        dedupe_key: item!.id,
      });
      proxy.clear();
      expect(await tasksIn(IDS.doing, title)).toHaveLength(1);
      expect(await tasksIn(IDS.todo, title)).toHaveLength(1);
    }
    await on.off();
  });

  it('Task Completed → Reply on the task’s own thread (First Thread ID), never on another thread of the same subject', async () => {
    const on = await zap('task_completed', { board_id: IDS.board });
    const subject = 'Zap 2: roof quote';
    const ours = await inbound(subject);
    const other = await inbound(subject); // another customer's thread, same subject
    const task = await service.tasks.create({ list_id: IDS.doing, thread_id: ours.thread_id });
    await service.tasks.complete(task.id);
    const [item] = await on.trigger((json) => json['id'] === task.id);
    expect(item).toMatchObject({ first_thread_id: ours.thread_id });
    for (let run = 0; run < 2; run++) {
      proxy.fail({ fault: 'drop', when: writes, times: 1 });
      await step('creates', 'reply_to_thread', {
        thread_id: item!['first_thread_id'],
        body: 'Your task is done.',
        dedupe_key: item!.id,
      });
      proxy.clear();
      expect(await sentOn(ours.thread_id)).toHaveLength(1);
      expect(await sentOn(other.thread_id)).toHaveLength(0);
    }
    await on.off();
  });

  it('Find-or-Create Task "Plan Q2" → Set Custom Fields: created once beside "Plan Q2 roadmap review", which is untouched', async () => {
    const lookalike = await service.tasks.create({
      list_id: IDS.todo,
      title: 'Zap 3: Plan Q2 roadmap review',
    });
    const title = 'Zap 3: Plan Q2';
    for (let run = 0; run < 2; run++) {
      proxy.fail({ fault: 'bad-gateway', when: writes, times: 1 });
      const found = (await step('searches', 'find_task', { board_id: IDS.board, title })) as Item[];
      const task =
        found[0] ??
        ((await step('creates', 'create_task', { board_id: IDS.board, list_id: IDS.todo, title })) as Item);
      proxy.fail({ fault: 'drop', when: writes, times: 1 });
      await step('creates', 'set_custom_fields', {
        board_id: IDS.board,
        task_id: task.id,
        [`custom_field__${IDS.priority}`]: 'High',
      });
      proxy.clear();
      const planned = await tasksIn(IDS.todo, title);
      expect(planned).toHaveLength(1);
      expect(planned[0]!.custom_fields).toEqual([{ field_id: IDS.priority, value: [IDS.priorityHigh] }]);
      expect((await service.tasks.get(lookalike.id)).custom_fields).toEqual([]);
    }
  });

  it('Task Updated → Set Task Color on that task (the write hangs once, and is retried)', async () => {
    setRetryTimes({ delaysMs: [20, 60, 160], attemptTimeoutMs: 500, budgetMs: 3_000, minAttemptMs: 100 });
    const on = await zap('task_updated', { board_id: IDS.board });
    const task = await service.tasks.create({ list_id: IDS.doing, title: 'Zap 4: paint me' });
    const bystander = await service.tasks.create({ list_id: IDS.doing, title: 'Zap 4: leave me' });
    await service.tasks.update(task.id, { custom_fields: [{ field_id: IDS.estimate, value: 2 }] });
    const [item] = await on.trigger(
      (json) => (json['data'] as { task?: { id?: string } } | undefined)?.task?.id === task.id,
    );
    expect(item).toMatchObject({ task_id: task.id });
    for (let run = 0; run < 2; run++) {
      proxy.fail({ fault: 'hang', when: writes, times: 1 });
      await step('creates', 'set_task_color', {
        task_id: item!['task_id'],
        shade: 'red',
        dedupe_key: item!.id,
      });
      proxy.clear();
      expect((await service.tasks.get(task.id)).shade).toBe('red');
      expect((await service.tasks.get(bystander.id)).shade).toBe('none');
    }
    await on.off();
  });

  it('New Reply on a Thread → Create Task from it: a run that failed through, then replayed, leaves one task', async () => {
    const on = await zap('new_thread_reply', { scope: 'all' });
    const arrived = await inbound('Zap 5: can you quote a porch?');
    const [reply] = await on.trigger(
      (json) =>
        (json['data'] as { message?: { id?: string } } | undefined)?.message?.id === arrived.message_id,
    );
    const inputs = { list_id: IDS.todo, thread_id: reply!['thread_id'], dedupe_key: reply!['message_id'] };
    // The first run: every answer lost (a 502 after the service acted), so the step fails and says so.
    proxy.fail({ fault: 'bad-gateway', when: writes });
    const message = zapierMessage(await rejection(step('creates', 'create_task_from_thread', inputs)));
    proxy.clear();
    expect(message).toMatch(
      /^The service failed \(HTTP 502\).*Replaying this run is safe: with Only Once Per set/,
    );
    const linked = async () =>
      (await tasksIn(IDS.todo)).filter((task) => task.thread_ids.includes(arrived.thread_id));
    expect(await linked()).toHaveLength(1);
    // Zapier's Replay, twice: the same task, no second one.
    for (let run = 0; run < 2; run++) {
      const task = (await step('creates', 'create_task_from_thread', inputs)) as Item;
      expect((await linked()).map((each) => each.id)).toEqual([task.id]);
    }
    await on.off();
  });
});
