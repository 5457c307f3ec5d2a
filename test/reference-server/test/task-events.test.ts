// An event records a change (docs/webhooks.md, "What counts as a change"): a write that leaves every value
// as it was answers as usual, records no event (v2 webhooks, v1 hooks and the console's task page alike) and
// leaves the task's updated_at alone; task.updated says what changed in `previous_attributes`. And the Zap
// that loops on nothing ("Task Updated → Set Task Color") fires once and stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleApi, readAnswer, readBody } from './helpers/server.ts';
import { THREADS, tasksSeed } from './tasks-seed.ts';
import {
  closeAfterEach,
  deliveriesOf,
  type Receiver,
  shiftableClock,
  startReceiver,
  startWebhookServer,
  subscribe,
  v1Token,
  type WebhookTestServer,
  waitUntil,
} from './webhooks-support.ts';

const TASK_EVENTS = [
  'task.created',
  'task.updated',
  'task.completed',
  'task.uncompleted',
  'task.assigned',
  'task.moved',
  'task.archived',
  'task.deleted',
];

interface Recorded {
  type: string;
  changed?: string[];
}

/** A server with the task seed, the console (whose task page lists a task's events) and a movable clock. */
async function startServerWithConsole() {
  const clock = shiftableClock();
  const server = await startWebhookServer({ seed: tasksSeed, console: true, now: clock.now });
  const call = async (path: string, init: Parameters<WebhookTestServer['v2']>[1] = {}) =>
    readAnswer(await server.v2(path, init));
  const consoleCall = async (path: string, init: { method?: string; body?: unknown } = {}) =>
    readAnswer(
      await consoleApi(server, path, {
        method: init.method ?? 'GET',
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      }),
    );
  return {
    server,
    clock,
    call,
    consoleApi: consoleCall,
    patch: (id: string, body: unknown) => call(`/tasks/${id}`, { method: 'PATCH', body }),
    post: (path: string, body?: unknown) => call(path, { method: 'POST', body }),
    async newTask(title: string, listId = 'lst_todo'): Promise<string> {
      const created = await call('/tasks', { method: 'POST', body: { list_id: listId, title } });
      expect(created.status).toBe(200);
      return created.body.data.id as string;
    },
    /** The task's recorded events, oldest first, as the console's task page lists them. */
    async recorded(taskId: string): Promise<Recorded[]> {
      const view = await consoleCall(`tasks/${taskId}`);
      expect(view.status).toBe(200);
      return (view.body.data.events as Recorded[]).map(({ type, changed }) =>
        changed ? { type, changed } : { type },
      );
    },
    /** The task's stored updated_at (no answer shows it). */
    async updatedAt(taskId: string): Promise<string> {
      const row = await server.ctx.db
        .selectFrom('tasks')
        .select('updated_at')
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      return row.updated_at;
    },
  };
}

describe('a write that changes nothing', () => {
  let api: Awaited<ReturnType<typeof startServerWithConsole>>;
  let receiver: Receiver;
  let subscriptionId: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    api = await startServerWithConsole();
    subscriptionId = (await subscribe(api.server, { target_url: receiver.url, events: TASK_EVENTS })).id;
  });
  afterAll(async () => {
    await api.server.close();
    await receiver.close();
  });

  /** The v2 webhook's deliveries of this task's events, oldest first: their event types. */
  async function delivered(taskId: string): Promise<string[]> {
    const events = (await api.consoleApi(`tasks/${taskId}`)).body.data.events as { id: string }[];
    const ofTask = new Set(events.map((event) => event.id));
    const deliveries = (await deliveriesOf(api.server, subscriptionId, '?limit=200')).reverse();
    return deliveries
      .filter((delivery) => ofTask.has(delivery.event_id))
      .map((delivery) => delivery.event_type);
  }

  it('the same shade again: answers the task, records no task.updated, keeps updated_at', async () => {
    const id = await api.newTask('Shade twice');
    const red = await api.patch(id, { shade: 'red' });
    expect(red.body.data.shade).toBe('red');
    const changedAt = await api.updatedAt(id);
    api.clock.advance(60_000);
    const again = await api.patch(id, { shade: 'red' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(red.body.data);
    expect(await api.updatedAt(id)).toBe(changedAt);
    expect(await api.recorded(id)).toEqual([
      { type: 'task.created' },
      { type: 'task.updated', changed: ['shade'] },
    ]);
    expect(await delivered(id)).toEqual(['task.created', 'task.updated']);
  });

  it('the same custom-field values, in any order for option fields, and clearing an empty field', async () => {
    const id = await api.newTask('Values twice');
    const values = [
      { field_id: 'cf_prio', value: ['opt_high', 'opt_low'] },
      { field_id: 'cf_state', value: ['opt_open'] },
      { field_id: 'cf_text', value: 'hello' },
      { field_id: 'cf_amount', value: 12.5 },
      { field_id: 'cf_done', value: false },
      { field_id: 'cf_when', value: '2026-04-01' },
    ];
    const first = await api.patch(id, { custom_fields: values });
    expect(first.status).toBe(200);
    const changedAt = await api.updatedAt(id);
    api.clock.advance(60_000);
    // The same values again; the tag's options in the other order (a set: order carries no meaning).
    const reordered = values.map((entry) =>
      entry.field_id === 'cf_prio' ? { ...entry, value: ['opt_low', 'opt_high', 'opt_low'] } : entry,
    );
    for (const body of [
      { custom_fields: reordered },
      { custom_fields: [values[2]] },
      { custom_fields: [{ field_id: 'cf_prio', value: ['opt_low', 'opt_high'] }], shade: 'none' },
    ]) {
      const again = await api.patch(id, body);
      expect(again.status).toBe(200);
      // The answer is the task as it stands: the tag keeps the order it was stored in.
      expect(again.body.data).toEqual(first.body.data);
    }
    const empty = await api.newTask('Nothing to clear');
    const emptyAt = await api.updatedAt(empty);
    api.clock.advance(60_000);
    for (const cleared of [null, []]) {
      const clear = await api.patch(empty, {
        custom_fields: [
          { field_id: 'cf_text', value: cleared },
          { field_id: 'cf_prio', value: [] },
        ],
      });
      expect(clear.status).toBe(200);
      expect(clear.body.data.custom_fields).toEqual([]);
    }
    expect(await api.updatedAt(id)).toBe(changedAt);
    expect(await api.updatedAt(empty)).toBe(emptyAt);
    expect(await api.recorded(id)).toEqual([
      { type: 'task.created' },
      { type: 'task.updated', changed: ['custom_fields'] },
    ]);
    expect(await api.recorded(empty)).toEqual([{ type: 'task.created' }]);
    expect(await delivered(id)).toEqual(['task.created', 'task.updated']);
    expect(await delivered(empty)).toEqual(['task.created']);
  });

  it('still rejects a bad value sent beside values the task already holds', async () => {
    const id = await api.newTask('Bad beside same');
    await api.patch(id, { custom_fields: [{ field_id: 'cf_text', value: 'kept' }] });
    const bad = await api.patch(id, {
      custom_fields: [
        { field_id: 'cf_text', value: 'kept' },
        { field_id: 'cf_amount', value: 'many' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: 'custom_fields[1].value', message: 'must be a number' }]);
  });

  it('completing a completed task, reopening an open one, moving to its own list, archiving twice, linking a linked thread', async () => {
    const id = await api.newTask('Every command twice');
    const steps: [string, unknown?][] = [
      [`/tasks/${id}/complete`],
      [`/tasks/${id}/complete`],
      [`/tasks/${id}/move`, { list_id: 'lst_doing' }],
      [`/tasks/${id}/move`, { list_id: 'lst_doing' }],
      [`/tasks/${id}/threads`, { thread_id: THREADS.invoice }],
      [`/tasks/${id}/threads`, { thread_id: THREADS.invoice }],
      [`/tasks/${id}/archive`],
      [`/tasks/${id}/archive`],
    ];
    const changedAt: string[] = [];
    for (const [path, body] of steps) {
      api.clock.advance(60_000);
      const answer = await api.post(path, body);
      expect(answer.status, path).toBe(200);
      changedAt.push(await api.updatedAt(id));
    }
    // Each second step left updated_at where the first put it.
    for (let step = 1; step < steps.length; step += 2) {
      expect(changedAt[step], steps[step]![0]).toBe(changedAt[step - 1]);
    }
    expect(await api.recorded(id)).toEqual([
      { type: 'task.created' },
      { type: 'task.completed' },
      { type: 'task.moved' },
      { type: 'task.updated', changed: ['thread_ids', 'first_thread'] },
      { type: 'task.archived' },
    ]);
    expect(await delivered(id)).toEqual([
      'task.created',
      'task.completed',
      'task.moved',
      'task.updated',
      'task.archived',
    ]);
  });

  it('through the console: the same shade again records nothing', async () => {
    const id = await api.newTask('Console shade');
    for (let times = 0; times < 2; times++) {
      const answer = await api.consoleApi(`tasks/${id}`, { method: 'PATCH', body: { shade: 'teal' } });
      expect(answer.status).toBe(200);
      expect(answer.body.data.shade).toBe('teal');
    }
    for (let times = 0; times < 2; times++) {
      const answer = await api.consoleApi(`tasks/${id}/complete`, {
        method: 'POST',
        body: { completed: true },
      });
      expect(answer.status).toBe(200);
    }
    expect(await api.recorded(id)).toEqual([
      { type: 'task.created' },
      { type: 'task.updated', changed: ['shade'] },
      { type: 'task.completed' },
    ]);
  });
});

describe('v1 writes that change nothing', () => {
  const defer = closeAfterEach();

  it('record each event and fire each v1 hook once: complete, incomplete, assign and move, each sent twice', async () => {
    const hooks = await startReceiver();
    const api = await startServerWithConsole();
    defer(
      () => hooks.close(),
      () => api.server.close(),
    );
    const token = await v1Token(api.server);
    const v1 = async (path: string, body: unknown) =>
      readAnswer(await api.server.v1(path, { method: 'POST', token, body }));
    for (const [object, action, entityId] of [
      ['items', 'itemCompleted', 'brd_acme'],
      ['items', 'assignedTo', 'brd_acme'],
      ['lists', 'movedToList', 'lst_done'],
    ] as const) {
      const subscribed = await v1(`/${object}/subscribe`, {
        action,
        entityId,
        webhookURL: `${hooks.url}?action=${action}`,
      });
      expect(subscribed.status).toBe(200);
    }
    const id = await api.newTask('v1 twice');
    const itemId = { itemId: id };
    const steps: [string, unknown][] = [
      ['/items/markComplete', itemId],
      ['/items/markComplete', itemId],
      ['/items/markIncomplete', itemId],
      ['/items/markIncomplete', itemId],
      ['/items/assignTask', { ...itemId, assigneeEmail: 'dan@example.com' }],
      ['/items/assignTask', { ...itemId, assigneeEmail: 'DAN@example.com' }],
      ['/items/moveTaskToList', { ...itemId, listId: 'lst_done' }],
      ['/items/moveTaskToList', { ...itemId, listId: 'lst_done' }],
      ['/items/unassignTask', { ...itemId, assigneeEmail: 'dan@example.com' }],
    ];
    for (const [path, body] of steps) {
      const answer = await v1(path, body);
      expect(answer.status, path).toBe(200);
      expect(answer.body).toEqual({ success: true });
    }
    expect(await api.recorded(id)).toEqual([
      { type: 'task.created' },
      { type: 'task.completed' },
      { type: 'task.uncompleted' },
      { type: 'task.assigned' },
      { type: 'task.moved' },
      { type: 'task.updated', changed: ['assignee'] },
    ]);
    // Every hook delivery is in the outbox once its write has answered: the console lists them all.
    const subscriptions = (await api.consoleApi('deliveries')).body.data.subscriptions as {
      kind: string;
      events: string[];
      counts: Record<string, number>;
    }[];
    const hookDeliveries = Object.fromEntries(
      subscriptions
        .filter((subscription) => subscription.kind === 'v1')
        .map((subscription) => [
          subscription.events[0],
          Object.values(subscription.counts).reduce((sum, count) => sum + count, 0),
        ]),
    );
    expect(hookDeliveries).toEqual({ itemCompleted: 1, assignedTo: 1, movedToList: 1 });
    await waitUntil(() => hooks.requests.length === 3, 'the three hook deliveries');
  });
});

describe('previous_attributes of task.updated', () => {
  let api: Awaited<ReturnType<typeof startServerWithConsole>>;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    api = await startServerWithConsole();
    await subscribe(api.server, { target_url: receiver.url, events: ['task.updated'] });
  });
  afterAll(async () => {
    await api.server.close();
    await receiver.close();
  });

  /** The task.updated bodies delivered for this task, oldest first, once `count` have arrived. */
  async function updates(taskId: string, count: number) {
    const mine = () =>
      receiver.requests
        .map((request) => JSON.parse(request.body))
        .filter((event) => event.data.task.id === taskId)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    await waitUntil(() => mine().length >= count, `${count} task.updated of ${taskId}`);
    return mine();
  }

  it('a PATCH: each field that changed with its value before; custom_fields only the fields that changed', async () => {
    const id = await api.newTask('Before and after');
    await api.patch(id, {
      custom_fields: [
        { field_id: 'cf_prio', value: ['opt_high'] },
        { field_id: 'cf_text', value: 'first' },
      ],
    });
    api.clock.advance(1000);
    const patched = await api.patch(id, {
      shade: 'blue',
      custom_fields: [
        { field_id: 'cf_amount', value: 7 },
        { field_id: 'cf_prio', value: ['opt_high', 'opt_low'] },
        { field_id: 'cf_text', value: 'first' },
      ],
    });
    api.clock.advance(1000);
    await api.patch(id, {
      shade: 'blue',
      custom_fields: [
        { field_id: 'cf_text', value: null },
        { field_id: 'cf_amount', value: 7 },
      ],
    });
    const [first, second, third] = await updates(id, 3);
    expect(first.data.previous_attributes).toEqual({
      custom_fields: [
        { field_id: 'cf_prio', value: null },
        { field_id: 'cf_text', value: null },
      ],
    });
    // In the board's field order, whatever the order sent; cf_text was sent unchanged and is left out.
    expect(second.data).toEqual({
      task: patched.body.data,
      previous_attributes: {
        shade: 'none',
        custom_fields: [
          { field_id: 'cf_prio', value: ['opt_high'] },
          { field_id: 'cf_amount', value: null },
        ],
      },
    });
    expect(third.data.previous_attributes).toEqual({
      custom_fields: [{ field_id: 'cf_text', value: 'first' }],
    });
  });

  it('unassigning, linking a thread, and a custom-field option removed', async () => {
    const id = await api.newTask('Other updates');
    const token = await v1Token(api.server);
    const v1 = (path: string, body: unknown) => api.server.v1(path, { method: 'POST', token, body });
    expect((await v1('/items/assignTask', { itemId: id, assigneeEmail: 'dan@example.com' })).status).toBe(
      200,
    );
    expect((await v1('/items/unassignTask', { itemId: id, assigneeEmail: 'dan@example.com' })).status).toBe(
      200,
    );
    api.clock.advance(1000);
    expect((await api.post(`/tasks/${id}/threads`, { thread_id: THREADS.quote })).status).toBe(200);
    api.clock.advance(1000);
    expect((await api.post(`/tasks/${id}/threads`, { thread_id: THREADS.invoice })).status).toBe(200);
    api.clock.advance(1000);
    const field = await api.post('/boards/brd_acme/custom-fields', {
      name: 'Flavour',
      type: 'tag',
      options: [{ label: 'Sweet' }, { label: 'Sour' }],
    });
    const [sweet, sour] = (field.body.data.options as { id: string }[]).map((option) => option.id);
    await api.patch(id, { custom_fields: [{ field_id: field.body.data.id, value: [sour, sweet] }] });
    api.clock.advance(1000);
    const removed = await api.call(`/custom-fields/${field.body.data.id}`, {
      method: 'PATCH',
      body: { options: [{ id: sweet, label: 'Sweet' }] },
    });
    expect(removed.status).toBe(200);

    const [unassigned, firstLink, secondLink, set, optionRemoved] = await updates(id, 5);
    expect(unassigned.data.previous_attributes).toEqual({
      assignee: { name: 'Dan Brown', email: 'dan@example.com' },
    });
    expect(unassigned.data.task.assignee).toBeNull();
    expect(firstLink.data.previous_attributes).toEqual({ thread_ids: [], first_thread: null });
    expect(firstLink.data.task.first_thread).toMatchObject({ title: 'Quote request' });
    expect(secondLink.data.previous_attributes).toEqual({ thread_ids: [THREADS.quote] });
    expect(set.data.previous_attributes).toEqual({
      custom_fields: [{ field_id: field.body.data.id, value: null }],
    });
    expect(optionRemoved.data.previous_attributes).toEqual({
      custom_fields: [{ field_id: field.body.data.id, value: [sour, sweet] }],
    });
    expect(optionRemoved.data.task.custom_fields).toEqual([{ field_id: field.body.data.id, value: [sweet] }]);
  });
});

describe('the Zap "Task Updated → Set Task Color"', () => {
  const defer = closeAfterEach();

  /**
   * A Zap as a receiver: on each task.updated it sets the task's shade (or a tag) with a PATCH, as the
   * Zapier action would. It acts at most `MAX_RUNS` times, so that a loop ends the test instead of
   * running on.
   */
  const MAX_RUNS = 10;
  async function zap(server: WebhookTestServer, body: unknown) {
    const runs: Promise<number>[] = [];
    const receiver = await startReceiver((request) => {
      const event = JSON.parse(request.body);
      if (event.type === 'task.updated' && runs.length < MAX_RUNS) {
        runs.push(
          server.v2(`/tasks/${event.data.task.id}`, { method: 'PATCH', body }).then(async (response) => {
            await readBody(response);
            return response.status;
          }),
        );
      }
      return 200;
    });
    defer(() => receiver.close());
    const { id } = await subscribe(server, { target_url: receiver.url, events: ['task.updated'] });
    return { receiver, runs, subscriptionId: id };
  }

  /** Waits until the Zap has run `count` times and each run's PATCH has answered. */
  async function ranTimes(runs: Promise<number>[], count: number) {
    await waitUntil(() => runs.length >= count, `${count} Zap runs`);
    expect(await Promise.all(runs)).toEqual(Array(runs.length).fill(200));
  }

  it('fires once and stops when it sets the shade the task already has', async () => {
    const server = await startWebhookServer({ seed: tasksSeed });
    defer(() => server.close());
    const { receiver, runs, subscriptionId } = await zap(server, { shade: 'red' });
    const created = await server.v2('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_todo', title: 'Zap me' },
    });
    const { id } = (await readBody(created)).data;
    // The user sets red; the Zap hears it and sets red again: a no-op, nothing more to hear.
    await server.v2(`/tasks/${id}`, { method: 'PATCH', body: { shade: 'red' } });
    await ranTimes(runs, 1);
    // Every event the Zap's PATCH recorded would already be in the delivery log when it answered.
    expect((await deliveriesOf(server, subscriptionId)).map((delivery) => delivery.event_type)).toEqual([
      'task.updated',
    ]);
    expect(runs).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]!.body).data.previous_attributes).toEqual({ shade: 'none' });
  });

  it('fires twice and stops when the user picked another shade: once for the user, once for itself', async () => {
    const server = await startWebhookServer({ seed: tasksSeed });
    defer(() => server.close());
    const { runs, subscriptionId } = await zap(server, {
      shade: 'red',
      custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }],
    });
    await server.v2('/tasks/tsk_1', { method: 'PATCH', body: { shade: 'blue' } });
    await ranTimes(runs, 2);
    const deliveries = await deliveriesOf(server, subscriptionId);
    expect(deliveries).toHaveLength(2);
    await waitUntil(
      async () =>
        (await deliveriesOf(server, subscriptionId)).every((delivery) => delivery.status === 'delivered'),
      'both deliveries delivered',
    );
    expect(runs).toHaveLength(2);
    const task = (await readBody(await server.v2('/tasks/tsk_1'))).data;
    expect(task).toMatchObject({
      shade: 'red',
      custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }],
    });
  });
});
