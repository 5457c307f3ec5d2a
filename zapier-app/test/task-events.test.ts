/**
 * The instant task triggers on v2 webhooks (`task_updated`, `task_uncompleted`) and the filters of the v1
 * ones (`task_assigned` by assignee, `task_completed` by list): subscribe and unsubscribe wire shapes,
 * signature checks, the chosen board or filter applied to each delivery, samples.
 */
import { signPayload } from '@threadwork/shared/webhooks';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import * as resources from '../src/creates/resources.ts';
import { appTester, authData, jwt, ORIGIN, rejection, zapierMessage } from './helpers/auth.ts';
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

describe.each([
  { key: 'task_updated', event: 'task.updated' },
  { key: 'task_uncompleted', event: 'task.uncompleted' },
])('$key (v2 webhook on $event)', ({ key, event }) => {
  const delivery = (data: unknown, id = 'evt_1', type = event) =>
    JSON.stringify({ id, type, created_at: '2026-01-06T08:30:01.000Z', data });
  const deliver = (body: string, signature = signPayload(body, SECRET)) =>
    appTester(op(key, 'perform'), {
      authData: authData(),
      inputData: { board_id: 'brd_roadmap' },
      subscribeData: { id: 'wh_1', secret: SECRET },
      cleanedRequest: JSON.parse(body),
      rawRequest: { content: body, headers: { 'Http-X-Service-Signature': signature } },
    });

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
    nock(ORIGIN)
      .get('/v2/boards/brd_roadmap/custom-fields')
      .query({ limit: '200' })
      .reply(200, {
        data: [
          {
            id: 'cf_priority',
            name: 'Priority',
            type: 'tag',
            ai: false,
            display_on_card: true,
            options: [{ id: 'opt_high', label: 'High' }],
          },
        ],
        meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
      });
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

  it('samples at most 10 of the board’s newest tasks, in the delivered shape', async () => {
    const tasks = Array.from({ length: 12 }, (_, index) => ({
      ...task,
      id: `tsk_${index}`,
      completed: index % 2 === 0,
      created_at: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    }));
    nock(ORIGIN)
      .get('/v2/tasks')
      .query({ board_id: 'brd_roadmap', limit: '200' })
      .reply(200, {
        data: tasks,
        meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
      });
    const samples = await appTester(op(key, 'performList'), {
      authData: authData(),
      inputData: { board_id: 'brd_roadmap' },
    });
    expect(samples.length).toBeLessThanOrEqual(10);
    expect(samples[0]).toMatchObject({ task_id: 'tsk_11' });
    expect(samples[0].id).toMatch(/^evt_sample_/);
    const dates = samples.map((sample: { created_at: string }) => Date.parse(sample.created_at));
    expect(dates).toEqual(dates.toSorted((a: number, b: number) => b - a));
    // task_uncompleted samples incomplete tasks.
    if (key === 'task_uncompleted') {
      expect(samples.every((sample: { completed: boolean }) => !sample.completed)).toBe(true);
    }
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
