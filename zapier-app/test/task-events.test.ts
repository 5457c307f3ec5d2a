/**
 * The instant task triggers on v2 webhooks (`task_updated`, `task_uncompleted`) and the filters of the v1
 * ones (`task_assigned` by assignee, `task_completed` by list): subscribe and unsubscribe wire shapes,
 * signature checks, the chosen board or filter applied to each delivery, samples.
 */
import { signPayload } from '@threadwork/shared/webhooks';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import * as resources from '../src/creates/resources.ts';
import { App, appTester, authData, jwt, ORIGIN, rejection, zapierMessage } from './helpers/auth.ts';
import { strictNock } from './helpers/nock.ts';
import { triggerOperation } from './helpers/triggers.ts';

strictNock();

const op = triggerOperation;

const TARGET_URL = 'https://hooks.zapier.test/hooks/standard/1/abc';
const SECRET = 'whsec_task_secret';
const task = { ...resources.task.sample, id: 'tsk_1', board_id: 'brd_roadmap' };

function mintsToken(token: string) {
  nock(ORIGIN, { badheaders: ['x-access-token'] })
    .post('/auth/api_token')
    .query(true)
    .reply(200, { 'x-access-token': token });
}

/** A delivery's body, as the service signs it. */
const eventBody = (type: string, data: unknown, id = 'evt_1') =>
  JSON.stringify({ id, type, created_at: '2026-01-06T08:30:01.000Z', data });
/** `perform` of trigger `key` on a delivery of `body` for a Zap on brd_roadmap. */
const deliverTo = (key: string, body: string, signature = signPayload(body, SECRET)) =>
  appTester(op(key, 'perform'), {
    authData: authData(),
    inputData: { board_id: 'brd_roadmap' },
    subscribeData: { id: 'wh_1', secret: SECRET },
    cleanedRequest: JSON.parse(body),
    rawRequest: { content: body, headers: { 'Http-X-Service-Signature': signature } },
  });
/** The board's custom fields, read `times` times (the trigger reads them once per delivery or sample list). */
const readsFields = (times = 1, status = 200) =>
  nock(ORIGIN)
    .get('/v2/boards/brd_roadmap/custom-fields')
    .query({ limit: '200' })
    .times(times)
    .reply(
      status,
      status === 200
        ? {
            data: [
              {
                id: 'cf_priority',
                name: 'Priority',
                type: 'tag',
                ai: false,
                display_on_card: true,
                options: [
                  { id: 'opt_high', label: 'High' },
                  { id: 'opt_low', label: 'Low' },
                ],
              },
              {
                id: 'cf_estimate',
                name: 'Estimate (days)',
                type: 'number',
                ai: false,
                display_on_card: false,
                options: null,
              },
            ],
            meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
          }
        : { error: { code: 'insufficient_scope', message: 'needs customfields.read', request_id: 'r' } },
    );
/** The board's tasks, as the samples read them. */
const listsTasks = (tasks: unknown[]) =>
  nock(ORIGIN)
    .get('/v2/tasks')
    .query({ board_id: 'brd_roadmap', limit: '200' })
    .reply(200, {
      data: tasks,
      meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
    });
const samplesOf = (key: string) =>
  appTester(op(key, 'performList'), { authData: authData(), inputData: { board_id: 'brd_roadmap' } });
const staticSample = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: { sample: Record<string, unknown> } }>)[key]!
    .operation.sample;

describe.each([
  { key: 'task_updated', event: 'task.updated' },
  { key: 'task_uncompleted', event: 'task.uncompleted' },
])('$key (v2 webhook on $event)', ({ key, event }) => {
  const delivery = (data: unknown, id = 'evt_1', type = event) => eventBody(type, data, id);
  const deliver = (body: string, signature?: string) => deliverTo(key, body, signature);

  it(`subscribes a v2 webhook on ${event} with a fresh token, a new subscription each time`, async () => {
    const minted = jwt(1200, 'minted');
    const keys: string[] = [];
    for (const id of ['wh_1', 'wh_2']) {
      mintsToken(minted);
      nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
        .matchHeader('idempotency-key', (value: string | null) => {
          keys.push(String(value));
          return true;
        })
        .post('/v2/webhooks/subscriptions', { target_url: TARGET_URL, events: [event] })
        .reply(200, {
          data: { id, target_url: TARGET_URL, events: [event], secret: SECRET },
          meta: { request_id: 'r' },
        });
      const result = await appTester(op(key, 'performSubscribe'), {
        authData: authData(),
        inputData: { board_id: 'brd_roadmap' },
        targetUrl: TARGET_URL,
      });
      expect(result).toEqual({ id, secret: SECRET });
    }
    // Turning the Zap on again never replays the first (perhaps deleted) subscription.
    expect(new Set(keys).size).toBe(2);
  });

  it('unsubscribes by id, and succeeds when the subscription is already gone', async () => {
    for (const status of [200, 404]) {
      mintsToken(jwt(1200));
      nock(ORIGIN)
        .delete('/v2/webhooks/subscriptions/wh_1')
        .reply(
          status,
          status === 200
            ? { data: { id: 'wh_1', deleted: true }, meta: { request_id: 'r' } }
            : { error: { code: 'not_found', message: 'no such subscription', request_id: 'r' } },
        );
      const result = await appTester(op(key, 'performUnsubscribe'), {
        authData: authData(),
        subscribeData: { id: 'wh_1', secret: SECRET },
      });
      expect(result).toEqual({});
    }
  });

  it('outputs a signed event of the chosen board: the task, with the event id as id', async () => {
    const [output] = await deliver(delivery({ task }));
    expect(output).toMatchObject({ ...task, id: 'evt_1', task_id: 'tsk_1' });
  });

  it('names the custom fields and gives option labels beside their ids, as the task actions do', async () => {
    readsFields();
    const bare = { ...task, custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }] };
    const [output] = await deliver(delivery({ task: bare }));
    expect(output.custom_fields).toEqual([
      { field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] },
    ]);
  });

  it('ignores an event of another board, and one of another type', async () => {
    expect(await deliver(delivery({ task: { ...task, board_id: 'brd_other' } }))).toEqual([]);
    expect(await deliver(delivery({ task }, 'evt_2', 'task.created'))).toEqual([]);
  });

  it('rejects a bad or stale signature, and a body changed after signing', async () => {
    const body = delivery({ task });
    for (const signature of [
      signPayload(body, 'another_secret'),
      signPayload(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    ]) {
      expect(zapierMessage(await rejection(deliver(body, signature)))).toMatch(/Rejected a delivery/);
    }
    const changed = body.replace('Send Bob', 'Send Eve');
    expect(zapierMessage(await rejection(deliver(changed, signPayload(body, SECRET))))).toMatch(
      /Rejected a delivery/,
    );
  });

  it('samples at most 10 of the board’s newest tasks, with exactly the keys of a delivery', async () => {
    const tasks = Array.from({ length: 12 }, (_, index) => ({
      ...task,
      id: `tsk_${index}`,
      completed: index % 2 === 0,
      created_at: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    }));
    listsTasks(tasks);
    // task_updated samples name their custom fields' previous values: one read of the board's fields.
    if (key === 'task_updated') readsFields();
    const samples = await samplesOf(key);
    expect(samples.length).toBeLessThanOrEqual(10);
    expect(samples[0]).toMatchObject({ task_id: 'tsk_11' });
    expect(samples[0].id).toMatch(/^evt_sample_/);
    const dates = samples.map((sample: { created_at: string }) => Date.parse(sample.created_at));
    expect(dates).toEqual(dates.toSorted((a: number, b: number) => b - a));
    // task_uncompleted samples incomplete tasks.
    if (key === 'task_uncompleted') {
      expect(samples.every((sample: { completed: boolean }) => !sample.completed)).toBe(true);
    }
    // What a Zap builder maps from a sample is there in every delivery, and nothing else.
    const [delivered] = await deliver(
      delivery(key === 'task_updated' ? { task, previous_attributes: { shade: 'red' } } : { task }),
    );
    const keys = Object.keys(delivered).sort();
    for (const sample of [...samples, staticSample(key)]) expect(Object.keys(sample).sort()).toEqual(keys);
  });
});

describe('task_updated: what changed, for a Filter step', () => {
  const updated = (data: unknown) => deliverTo('task_updated', eventBody('task.updated', data));
  const current = {
    ...task,
    shade: 'red',
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }],
  };
  const unchanged = {
    previous_shade: null,
    previous_custom_fields: [],
    previous_assignee_name: null,
    previous_assignee_email: null,
    previous_thread_ids: null,
  };

  it('names each change as the app names it, with the values before, labelled as the current ones (one read)', async () => {
    readsFields();
    const [output] = await updated({
      task: current,
      previous_attributes: {
        shade: 'none',
        custom_fields: [{ field_id: 'cf_priority', value: ['opt_low'] }],
      },
    });
    expect(output).toMatchObject({
      task_id: 'tsk_1',
      shade: 'red',
      custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] }],
      changed_fields: ['Color', 'Priority'],
      previous_shade: 'none',
      previous_custom_fields: [
        { field_id: 'cf_priority', value: ['opt_low'], name: 'Priority', labels: ['Low'] },
      ],
      previous_assignee_name: null,
      previous_assignee_email: null,
      previous_thread_ids: null,
    });
  });

  it('a custom field set from nothing, and one cleared: named even when the task holds no value now', async () => {
    readsFields();
    const [output] = await updated({
      task: { ...task, custom_fields: [{ field_id: 'cf_estimate', value: 3 }] },
      previous_attributes: {
        custom_fields: [
          { field_id: 'cf_priority', value: ['opt_high'] },
          { field_id: 'cf_estimate', value: null },
        ],
      },
    });
    expect(output).toMatchObject({
      ...unchanged,
      changed_fields: ['Priority', 'Estimate (days)'],
      previous_custom_fields: [
        { field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] },
        { field_id: 'cf_estimate', value: null, name: 'Estimate (days)' },
      ],
    });
  });

  it('only the colour: no custom field is read, nothing else is named', async () => {
    const [output] = await updated({ task, previous_attributes: { shade: 'blue' } });
    expect(output).toMatchObject({ ...unchanged, changed_fields: ['Color'], previous_shade: 'blue' });
  });

  it('a thread linked (the first: its snapshot too) and an assignee removed', async () => {
    const [linked] = await updated({ task, previous_attributes: { thread_ids: [], first_thread: null } });
    expect(linked).toMatchObject({
      ...unchanged,
      changed_fields: ['Linked Threads'],
      previous_thread_ids: [],
    });
    const [unassigned] = await updated({
      task: { ...task, assignee: null },
      previous_attributes: { assignee: { name: 'Bob Stone', email: 'bob@stone.test' } },
    });
    expect(unassigned).toMatchObject({
      ...unchanged,
      changed_fields: ['Assignee'],
      previous_assignee_name: 'Bob Stone',
      previous_assignee_email: 'bob@stone.test',
    });
  });

  it('fields that cannot be read (a key without "See custom fields"): changes named by field id', async () => {
    readsFields(1, 403);
    const [output] = await updated({
      task: current,
      previous_attributes: { custom_fields: [{ field_id: 'cf_priority', value: null }] },
    });
    expect(output.changed_fields).toEqual(['cf_priority']);
    expect(output.previous_custom_fields).toEqual([{ field_id: 'cf_priority', value: null }]);
  });

  it('an event without previous_attributes (recorded before the service sent them) names no change', async () => {
    const [output] = await updated({ task });
    expect(output).toMatchObject({ ...unchanged, changed_fields: [] });
  });

  it('samples: the change that set each task’s colour and values (from none); a task with neither is no sample', async () => {
    listsTasks([
      { ...task, id: 'tsk_plain', shade: 'none', custom_fields: [], created_at: '2026-01-09T00:00:00.000Z' },
      { ...task, id: 'tsk_red', shade: 'red', custom_fields: [], created_at: '2026-01-08T00:00:00.000Z' },
      { ...current, id: 'tsk_both', created_at: '2026-01-07T00:00:00.000Z' },
    ]);
    readsFields();
    const samples = await samplesOf('task_updated');
    expect(samples.map((sample: { task_id: string }) => sample.task_id)).toEqual(['tsk_red', 'tsk_both']);
    expect(samples[0]).toMatchObject({ ...unchanged, changed_fields: ['Color'], previous_shade: 'none' });
    expect(samples[1]).toMatchObject({
      changed_fields: ['Color', 'Priority'],
      previous_shade: 'none',
      previous_custom_fields: [{ field_id: 'cf_priority', value: null, name: 'Priority', labels: [] }],
    });
  });

  it('task_uncompleted says nothing of changes: its event is the change', async () => {
    const [output] = await deliverTo('task_uncompleted', eventBody('task.uncompleted', { task }));
    expect(output).not.toHaveProperty('changed_fields');
    expect(staticSample('task_uncompleted')).not.toHaveProperty('changed_fields');
  });
});

describe('filters on the v1 triggers, applied to each delivery', () => {
  const item = (extra: Record<string, unknown>) => ({
    id: 'tsk_1',
    title: 'Call Bob',
    boardName: 'Pipeline',
    boardId: 'brd_sales',
    listName: 'Leads',
    listId: 'lst_leads',
    dateCreated: '2026-01-05T10:00:00.000Z',
    dueDate: null,
    notes: null,
    firstThread: null,
    completed: true,
    assignedTo: 'Bob',
    assignedToEmail: 'bob@example.com',
    ...extra,
  });
  /** The task's v2 view, read for each delivery that passes the filter (and only for those). */
  const v2View = { ...task, id: 'tsk_1', board_id: 'brd_sales', custom_fields: [] };
  const readsTask = (times: number) =>
    nock(ORIGIN)
      .get('/v2/tasks/tsk_1')
      .times(times)
      .reply(200, { data: v2View, meta: { request_id: 'r' } });
  const deliver = (key: string, inputData: Record<string, unknown>, body: Record<string, unknown>) =>
    appTester(op(key, 'perform'), {
      authData: authData(),
      inputData: { board_id: 'brd_sales', ...inputData },
      cleanedRequest: body,
      rawRequest: { content: JSON.stringify(body), headers: { 'Http-X-Service-Event-Id': 'evt_9' } },
    });

  it('task_assigned: only the chosen assignee (any case); everyone when left empty', async () => {
    readsTask(2);
    expect(await deliver('task_assigned', { assignee_email: 'BOB@example.com' }, item({}))).toHaveLength(1);
    expect(await deliver('task_assigned', { assignee_email: 'ada@example.com' }, item({}))).toEqual([]);
    expect(await deliver('task_assigned', {}, item({}))).toHaveLength(1);
  });

  it('task_completed: only the chosen list; the whole board when left empty', async () => {
    readsTask(2);
    expect(await deliver('task_completed', { list_id: 'lst_leads' }, item({}))).toHaveLength(1);
    expect(await deliver('task_completed', { list_id: 'lst_won' }, item({}))).toEqual([]);
    expect(await deliver('task_completed', {}, item({ listId: 'lst_won' }))).toHaveLength(1);
  });

  it('the subscription itself stays the board’s (v1 subscriptions take no filter)', async () => {
    mintsToken(jwt(1200));
    nock(ORIGIN)
      .post('/api/v1/items/subscribe', {
        email: 'ada@example.com',
        action: 'itemCompleted',
        entityId: 'brd_sales',
        webhookURL: TARGET_URL,
        apiService: 'zapier',
      })
      .reply(200, {
        id: 'sub_1',
        action: 'itemCompleted',
        entityId: 'brd_sales',
        webhookURL: TARGET_URL,
        apiService: 'zapier',
      });
    await appTester(op('task_completed', 'performSubscribe'), {
      authData: authData(),
      inputData: { board_id: 'brd_sales', list_id: 'lst_leads' },
      targetUrl: TARGET_URL,
    });
  });

  it('samples pass the same filter', async () => {
    nock(ORIGIN)
      .get('/api/v1/items')
      .query({ boardId: 'brd_sales' })
      .reply(200, [item({ id: 'tsk_a', listId: 'lst_won' }), item({ id: 'tsk_b', listId: 'lst_leads' })]);
    nock(ORIGIN)
      .get('/v2/tasks')
      .query({ board_id: 'brd_sales', limit: '200' })
      .reply(200, {
        data: [{ ...v2View, id: 'tsk_b' }],
        meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
      });
    const samples = await appTester(op('task_completed', 'performList'), {
      authData: authData(),
      inputData: { board_id: 'brd_sales', list_id: 'lst_leads' },
    });
    expect(samples.map((sample: { task_id: string }) => sample.task_id)).toEqual(['tsk_b']);
  });
});
