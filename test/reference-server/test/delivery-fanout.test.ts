import { KnownWebhookEvent, V1Item, WebhookDelivery } from '@threadwork/shared/schemas';
import { EVENT_ID_HEADER } from '@threadwork/shared/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { inboundMessage, readBody } from './helpers/server.ts';
import {
  createTask,
  deliveriesOf,
  type Receiver,
  sleep,
  startReceiver,
  startWebhookServer,
  subscribe,
  v1Token,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

const CAROL_KEY = 'tw_test_carol_full_0123456789abcdef';

/** The fixture seed plus a key for carol (Umbrella) and a connected mailbox for ada. */
const seed = {
  ...fixtureSeed,
  api_keys: [
    ...fixtureSeed.api_keys,
    {
      id: 'key_carol_full',
      user_id: 'usr_carol',
      type: 'v2',
      name: 'ci',
      secret: CAROL_KEY,
      scopes: ['tasks.read', 'tasks.write', 'webhooks.manage', 'email.metadata.read'],
    },
  ],
  mailboxes: [{ user_id: 'usr_ada', email_address: 'ada@example.com' }],
} satisfies SeedInput;

describe('webhook fan-out', () => {
  let server: WebhookTestServer;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    server = await startWebhookServer({ seed, testControl: true });
  });
  afterAll(async () => {
    await server.close();
    for (const receiver of receivers) await receiver.close();
  });
  async function receiver(): Promise<Receiver> {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  }
  const events = (at: Receiver) =>
    at.requests.map((request) => KnownWebhookEvent.parse(JSON.parse(request.body)));

  it('sends a task event only to subscribers who can see the task’s board', async () => {
    const [forAda, forBob, forCarol] = [await receiver(), await receiver(), await receiver()];
    await subscribe(server, { target_url: forAda.url, events: ['task.created'] });
    const bobs = await subscribe(
      server,
      { target_url: forBob.url, events: ['task.created'] },
      SECRETS.bobFull,
    );
    await subscribe(server, { target_url: forCarol.url, events: ['task.created'] }, CAROL_KEY);

    const acme = await createTask(server, 'lst_todo', 'Acme work');
    const umbrella = await createTask(server, 'lst_secret', 'Umbrella work', CAROL_KEY);
    await waitUntil(() => forAda.requests.length >= 1 && forCarol.requests.length >= 1, 'both deliveries');
    await sleep(100);

    const taskIds = (at: Receiver) =>
      events(at).map((event) => (event.data as { task: { id: string } }).task.id);
    expect(taskIds(forAda)).toEqual([acme.id]);
    expect(taskIds(forCarol)).toEqual([umbrella.id]);
    expect(forBob.requests).toHaveLength(0);
    expect(await deliveriesOf(server, bobs.id, '', SECRETS.bobFull)).toEqual([]);
  });

  it('sends a subscription only the event types it names', async () => {
    const target = await receiver();
    await subscribe(server, { target_url: target.url, events: ['task.completed'] });
    const task = await createTask(server, 'lst_todo', 'Complete me');
    expect((await server.v2(`/tasks/${task.id}/complete`, { method: 'POST' })).status).toBe(200);
    await waitUntil(() => target.requests.length >= 1, 'the completion');
    await sleep(100);
    expect(events(target).map((event) => event.type)).toEqual(['task.completed']);
    expect(events(target)[0]!.data).toMatchObject({ task: { id: task.id, completed: true } });
  });

  it('maps task events to the v1 actions, each hook on the entity it watches', async () => {
    const hooks = await receiver();
    const token = await v1Token(server);
    const watch = async (object: string, action: string, entityId: string) => {
      const response = await server.v1(`/${object}/subscribe`, {
        method: 'POST',
        token,
        body: { action, entityId, webhookURL: `${hooks.url}?action=${action}&entity=${entityId}` },
      });
      expect(response.status, `${action} on ${entityId}`).toBe(200);
    };
    await watch('items', 'createOnList', 'lst_todo');
    await watch('items', 'createOnList', 'lst_doing');
    await watch('items', 'createOnBoard', 'brd_acme');
    await watch('items', 'itemCompleted', 'brd_acme');
    await watch('items', 'itemArchived', 'brd_acme');
    await watch('items', 'itemDeleted', 'brd_acme');
    await watch('items', 'assignedTo', 'brd_acme');
    await watch('lists', 'movedToList', 'lst_done');
    await watch('lists', 'movedToList', 'lst_doing');

    const task = await createTask(server, 'lst_todo', 'Hooked');
    expect(
      (await server.v2(`/tasks/${task.id}/move`, { method: 'POST', body: { list_id: 'lst_done' } })).status,
    ).toBe(200);
    expect((await server.v2(`/tasks/${task.id}/complete`, { method: 'POST' })).status).toBe(200);
    const assign = await server.v1('/items/assignTask', {
      method: 'POST',
      token,
      body: { itemId: task.id, assigneeEmail: 'ada@example.com' },
    });
    expect(assign.status).toBe(200);
    expect((await server.v2(`/tasks/${task.id}/archive`, { method: 'POST' })).status).toBe(200);
    expect((await server.v2(`/tasks/${task.id}`, { method: 'DELETE' })).status).toBe(200);

    const expected = [
      'createOnList lst_todo',
      'createOnBoard brd_acme',
      'movedToList lst_done',
      'itemCompleted brd_acme',
      'assignedTo brd_acme',
      'itemArchived brd_acme',
      'itemDeleted brd_acme',
    ];
    await waitUntil(() => hooks.requests.length >= expected.length, 'every hook');
    await sleep(100);
    const fired = hooks.requests.map((request) => {
      const query = new URL(request.path, 'http://x').searchParams;
      return `${query.get('action')} ${query.get('entity')}`;
    });
    expect(fired.sort()).toEqual([...expected].sort());
    for (const request of hooks.requests) expect(V1Item.parse(JSON.parse(request.body)).id).toBe(task.id);
    const moved = hooks.requests.find((request) => request.path.includes('movedToList'))!;
    expect(JSON.parse(moved.body)).toMatchObject({ listId: 'lst_done', boardId: 'brd_acme' });
    const assigned = hooks.requests.find((request) => request.path.includes('assignedTo'))!;
    expect(JSON.parse(assigned.body)).toMatchObject({
      assignedTo: 'Ada Lovelace',
      assignedToEmail: 'ada@example.com',
    });
    // Both hooks of the creation carry the one event's id.
    const creations = hooks.requests.filter((request) => request.path.includes('createOn'));
    expect(new Set(creations.map((request) => request.headers[EVENT_ID_HEADER])).size).toBe(1);
  });

  it('sends thread.reply_received per filters.scope: tasked only with a visible linked task, all always', async () => {
    const [tasked, all, carols] = [await receiver(), await receiver(), await receiver()];
    await subscribe(server, { target_url: tasked.url, events: ['thread.reply_received'] });
    await subscribe(server, {
      target_url: all.url,
      events: ['thread.reply_received'],
      filters: { scope: 'all' },
    });
    await subscribe(
      server,
      { target_url: carols.url, events: ['thread.reply_received'], filters: { scope: 'all' } },
      CAROL_KEY,
    );
    const inbound = async (threadId?: string) => {
      const answer = await inboundMessage(server, {
        mailbox: 'ada@example.com',
        ...(threadId ? { thread_id: threadId } : {}),
        message: {
          from: { email: 'bob@stone.test', name: 'Bob' },
          subject: 'Quote',
          body_text: 'The secret price is 42',
        },
      });
      expect(answer.status).toBe(200);
      return answer.body as { thread_id: string; message_id: string };
    };

    const first = await inbound();
    await waitUntil(() => all.requests.length === 1, 'the untasked reply');
    await sleep(100);
    expect(tasked.requests).toHaveLength(0);

    const task = await createTask(server, 'lst_todo', 'Quote for Bob');
    const link = await server.v2(`/tasks/${task.id}/threads`, {
      method: 'POST',
      body: { thread_id: first.thread_id },
    });
    expect(link.status).toBe(200);
    const second = await inbound(first.thread_id);
    await waitUntil(() => all.requests.length === 2 && tasked.requests.length === 1, 'the tasked reply');

    const [event] = events(tasked);
    expect(event!.type).toBe('thread.reply_received');
    if (event!.type !== 'thread.reply_received') return;
    expect(event!.data.linked_tasks).toEqual([{ id: task.id, title: 'Quote for Bob' }]);
    expect(event!.data.message.id).toBe(second.message_id);
    expect(event!.data.thread.thread_id).toBe(first.thread_id);
    expect(event!.data.message).not.toHaveProperty('body_text');
    expect(event!.data.thread).not.toHaveProperty('messages');
    // Another user's subscription never hears of ada's mailbox.
    expect(carols.requests).toHaveLength(0);
  });

  it('sends a test event to the one subscription it was asked for', async () => {
    const [one, other] = [await receiver(), await receiver()];
    const first = await subscribe(server, { target_url: one.url, events: ['task.created'] });
    await subscribe(server, { target_url: other.url, events: ['task.created'] });
    const response = await server.v2(`/webhooks/subscriptions/${first.id}/test`, { method: 'POST' });
    expect(response.status).toBe(200);
    const delivery = WebhookDelivery.parse((await readBody(response)).data);
    expect(delivery).toMatchObject({
      subscription_id: first.id,
      event_type: 'webhook.test',
      status: 'pending',
    });

    await waitUntil(() => one.requests.length === 1, 'the test delivery');
    await sleep(100);
    expect(other.requests).toHaveLength(0);
    const [event] = events(one);
    expect(event).toMatchObject({
      id: delivery.event_id,
      type: 'webhook.test',
      data: { subscription_id: first.id },
    });
  });
});
