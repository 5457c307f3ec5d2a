import { signPayload } from '@threadwork/shared/webhooks';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { task as taskResource } from '../src/creates/resources.ts';
import { itemOutput, itemOutputFields } from '../src/triggers/rest-hook.ts';
import {
  App,
  appTester,
  authData,
  CREDENTIALS,
  FRESH_TOKEN,
  jwt,
  ORIGIN,
  rejection,
  zapierMessage,
} from './helpers/auth.ts';
import { strictNock } from './helpers/nock.ts';
import { triggerOperation } from './helpers/triggers.ts';

const op = triggerOperation;
const taskSample = taskResource.sample;

const TARGET_URL = 'https://hooks.zapier.test/hooks/standard/1/abc';

strictNock();

/** The token endpoint minting a fresh token (subscribe and unsubscribe never reuse the connection's). */
function mintsToken(token: string) {
  nock(ORIGIN, { badheaders: ['x-access-token'] })
    .post('/auth/api_token')
    .query(true)
    .reply(200, { 'x-access-token': token });
}

function item(id: string, dateCreated: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Task ${id}`,
    boardName: 'Pipeline',
    boardId: 'brd_sales',
    listName: 'Leads',
    listId: 'lst_leads',
    dateCreated,
    dueDate: null,
    notes: null,
    firstThread: null,
    completed: false,
    assignedTo: '',
    assignedToEmail: '',
    ...extra,
  };
}

const V1_TRIGGERS = [
  {
    key: 'new_task_in_list',
    action: 'createOnList',
    object: 'items',
    entity: 'list_id',
    entityId: 'lst_leads',
  },
  {
    key: 'new_task_on_board',
    action: 'createOnBoard',
    object: 'items',
    entity: 'board_id',
    entityId: 'brd_sales',
  },
  {
    key: 'task_completed',
    action: 'itemCompleted',
    object: 'items',
    entity: 'board_id',
    entityId: 'brd_sales',
  },
  {
    key: 'task_archived',
    action: 'itemArchived',
    object: 'items',
    entity: 'board_id',
    entityId: 'brd_sales',
  },
  { key: 'task_deleted', action: 'itemDeleted', object: 'items', entity: 'board_id', entityId: 'brd_sales' },
  { key: 'task_assigned', action: 'assignedTo', object: 'items', entity: 'board_id', entityId: 'brd_sales' },
  {
    key: 'task_moved_to_list',
    action: 'movedToList',
    object: 'lists',
    entity: 'list_id',
    entityId: 'lst_leads',
  },
] as const;

describe.each(V1_TRIGGERS)('$key (v1 $action)', ({ key, action, object, entity, entityId }) => {
  const trigger = () =>
    App.triggers[key] as unknown as { operation: Record<string, unknown> & { sample: object } };

  it(`subscribes through POST /api/v1/${object}/subscribe with a fresh token and bundle.targetUrl`, async () => {
    const minted = jwt(1200, 'minted');
    mintsToken(minted);
    const subscription = { id: 'sub_1', action, entityId, webhookURL: TARGET_URL, apiService: 'zapier' };
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .post(`/api/v1/${object}/subscribe`, {
        email: CREDENTIALS.email,
        action,
        entityId,
        webhookURL: TARGET_URL,
        apiService: 'zapier',
      })
      .reply(200, subscription);
    const result = await appTester(op(key, 'performSubscribe'), {
      authData: authData(jwt(-5, 'stale')),
      inputData: { [entity]: entityId },
      targetUrl: TARGET_URL,
    });
    expect(result).toEqual(subscription);
  });

  it(`unsubscribes through POST /api/v1/${object}/unsubscribe with the stored id and a fresh token`, async () => {
    const minted = jwt(1200, 'minted');
    mintsToken(minted);
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .post(`/api/v1/${object}/unsubscribe`, { subscriptionId: 'sub_1' })
      .reply(200);
    const result = await appTester(op(key, 'performUnsubscribe'), {
      authData: authData(jwt(-5, 'stale')),
      inputData: { [entity]: entityId },
      subscribeData: { id: 'sub_1' },
    });
    expect(result).toEqual({});
  });

  const taskGone = key === 'task_deleted';

  /** The task's v2 view, as GET /v2/tasks/{id} answers it: linked to a thread, one custom field value. */
  const v2Task = (id: string) => ({
    ...taskSample,
    id,
    board_id: 'brd_sales',
    board_name: 'Pipeline',
    list_id: 'lst_leads',
    list_name: 'Leads',
    thread_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6'],
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }],
  });
  const salesFields = {
    data: [
      {
        id: 'cf_priority',
        board_id: 'brd_sales',
        name: 'Priority',
        type: 'tag',
        ai: false,
        display_on_card: true,
        options: [{ id: 'opt_high', label: 'High' }],
      },
    ],
    meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
  };
  const extras = {
    thread_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6'],
    first_thread_id: '18c2f0a1b2c3d4e5',
    board_name: 'Pipeline',
    list_name: 'Leads',
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] }],
  };
  const noExtras = {
    thread_ids: [],
    first_thread_id: null,
    board_name: null,
    list_name: null,
    custom_fields: [],
  };
  const deliver = (delivered: object, eventId: string) =>
    appTester(op(key, 'perform'), {
      authData: authData(),
      inputData: { [entity]: entityId },
      cleanedRequest: delivered,
      rawRequest: { content: JSON.stringify(delivered), headers: { 'Http-X-Service-Event-Id': eventId } },
    });

  it(
    taskGone
      ? 'outputs the delivered item with the event id as id, and the task’s keys empty (it is gone), making no request'
      : 'outputs the delivered item with the event id as id, and what later steps need from the task’s v2 view',
    async () => {
      const delivered = item('tsk_9', '2026-01-05T10:00:00.000Z');
      if (!taskGone) {
        for (let delivery = 0; delivery < 2; delivery++) {
          nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } })
            .get('/v2/tasks/tsk_9')
            .reply(200, { data: v2Task('tsk_9'), meta: { request_id: 'r' } });
          nock(ORIGIN)
            .get('/v2/boards/brd_sales/custom-fields')
            .query({ limit: '200' })
            .reply(200, salesFields);
        }
      }
      const [first] = await deliver(delivered, 'evt_1');
      const [second] = await deliver(delivered, 'evt_2');
      expect(first).toEqual({
        ...delivered,
        id: 'evt_1',
        task_id: 'tsk_9',
        ...(taskGone ? noExtras : extras),
      });
      // The same task delivered twice (moved twice, say) is two distinct trigger items.
      expect(second.id).toBe('evt_2');
    },
  );

  if (!taskGone) {
    it('an item whose task is gone keeps the v1 fields alone, the added keys empty', async () => {
      const delivered = item('tsk_gone', '2026-01-05T10:00:00.000Z');
      nock(ORIGIN)
        .get('/v2/tasks/tsk_gone')
        .reply(404, {
          error: { code: 'not_found', message: 'task tsk_gone was not found', request_id: 'r' },
        });
      const [output] = await deliver(delivered, 'evt_3');
      expect(output).toEqual({ ...delivered, id: 'evt_3', task_id: 'tsk_gone', ...noExtras });
    });
  }

  it('rejects a delivery that is not an item', async () => {
    const error = await rejection(
      appTester(op(key, 'perform'), {
        authData: authData(),
        cleanedRequest: { hello: 'world' },
        rawRequest: { content: '{"hello":"world"}', headers: {} },
      }),
    );
    expect(zapierMessage(error)).toContain('not a task');
  });

  const staticSamples = key === 'task_archived' || key === 'task_deleted';

  it(
    staticSamples
      ? 'samples the static archived/deleted task (the API lists no archived or deleted task), making no request'
      : 'samples at most the 10 newest items the event delivers, each shaped as a delivery',
    async () => {
      const query = entity === 'list_id' ? { listId: entityId } : { boardId: entityId };
      const matching = Array.from({ length: 12 }, (_, index) =>
        item(`tsk_${index}`, `2026-01-${String(index + 1).padStart(2, '0')}T10:00:00.000Z`, {
          completed: true,
          assignedTo: 'Ada',
          assignedToEmail: 'ada@example.com',
        }),
      );
      // Newest of all, but neither completed nor assigned: no sample of a completion or an assignment.
      const plain = item('tsk_plain', '2026-02-01T10:00:00.000Z');
      if (!staticSamples) {
        nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } })
          .get('/api/v1/items')
          .query(query)
          .reply(200, [...matching, plain]);
        // The samples' v2 views: one page of the list's (or board's) tasks, then the board's fields once.
        nock(ORIGIN)
          .get('/v2/tasks')
          .query({ [entity]: entityId, limit: '200' })
          .reply(200, {
            data: [...matching, plain].map((listed) => v2Task(listed.id)),
            meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
          });
        nock(ORIGIN)
          .get('/v2/boards/brd_sales/custom-fields')
          .query({ limit: '200' })
          .reply(200, salesFields);
      }
      const results = await appTester(op(key, 'performList'), {
        authData: authData(),
        inputData: { [entity]: entityId },
      });
      const { sample } = trigger().operation as { sample: Record<string, unknown> };
      if (staticSamples) {
        expect(results).toEqual([sample]);
        return;
      }
      const filtered = key === 'task_completed' || key === 'task_assigned';
      const expected = filtered ? ['tsk_11', 'tsk_10', 'tsk_9'] : ['tsk_plain', 'tsk_11', 'tsk_10'];
      expect(results).toHaveLength(10);
      expect(results.slice(0, 3).map((result: { task_id: string }) => result.task_id)).toEqual(expected);
      // The same keys as a delivery's output, and `id` stands for an event (unique), never the task's id.
      const delivered = itemOutput(matching[0] as never, 'evt_1');
      const ids = new Set<string>();
      for (const result of results) {
        expect(Object.keys(result).sort()).toEqual(Object.keys(delivered).sort());
        expect(result).toMatchObject(extras);
        expect(result.id).not.toBe(result.task_id);
        expect(result.id).toMatch(/^evt_/);
        ids.add(result.id);
      }
      expect(ids.size).toBe(10);
    },
  );

  it('turning the Zap off succeeds when the hook is already gone', async () => {
    mintsToken(jwt(1200, 'minted'));
    nock(ORIGIN)
      .post(`/api/v1/${object}/unsubscribe`, { subscriptionId: 'sub_gone' })
      .reply(404, {
        error: { code: 'not_found', message: 'subscription sub_gone was not found', request_id: 'r' },
      });
    const result = await appTester(op(key, 'performUnsubscribe'), {
      authData: authData(),
      inputData: { [entity]: entityId },
      subscribeData: { id: 'sub_gone' },
    });
    expect(result).toEqual({});
  });

  it('has a sample with every output field', () => {
    const { sample, outputFields } = trigger().operation as {
      sample: Record<string, unknown>;
      outputFields: unknown;
    };
    expect(outputFields).toBe(itemOutputFields);
    // A delivery's keys, the added ones too (empty for a deleted task, whose task is gone).
    expect(Object.keys(sample).sort()).toEqual(
      Object.keys(itemOutput(item('tsk_1', '') as never, 'e')).sort(),
    );
    for (const field of itemOutputFields) {
      const [head, tail] = field.key.split(/__|\[\]/) as [string, string | undefined];
      const value = sample[head];
      expect(value, field.key).toBeDefined();
      const inner = Array.isArray(value) ? value[0] : value;
      if (tail !== undefined && inner !== undefined) {
        expect((inner as Record<string, unknown>)[tail], field.key).toBeDefined();
      }
    }
  });
});

describe('turning a Zap on with a key that lacks a permission', () => {
  it('names the permission as the keys page shows it, and what to tick (v1 hooks are held to scopes too)', async () => {
    mintsToken(jwt(1200, 'minted'));
    nock(ORIGIN)
      .post('/api/v1/items/subscribe')
      .reply(403, {
        error: {
          code: 'insufficient_scope',
          message: 'this key lacks the scope webhooks.manage',
          request_id: 'req_403',
          details: { required_scopes: ['webhooks.manage'] },
        },
      });
    const error = await rejection(
      appTester(op('new_task_in_list', 'performSubscribe'), {
        authData: authData(),
        inputData: { list_id: 'lst_leads' },
        targetUrl: TARGET_URL,
      }),
    );
    expect(zapierMessage(error)).toBe(
      `The connected API key lacks the "Manage webhooks" permission (webhooks.manage), which this step needs. Create a key with "Manage webhooks" ticked in your account's API keys at ${ORIGIN}/keys (or in the extension's API tab), then reconnect this Zapier connection with the new key: its API key, secret and name.`,
    );
  });
});

describe('new_thread_reply (v2 webhook)', () => {
  const SECRET = 'whsec_test_secret';
  const thread = {
    provider: 'gmail',
    thread_id: '18c2f0a1b2c3d4e5',
    message_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4f9'],
    subject: 'Quote',
    participants: [{ email: 'bob@stone.test', name: 'Bob' }],
    latest_message_at: '2026-01-06T08:30:00.000Z',
    snippet: 'Thanks',
    direction: 'inbound',
    unread: true,
  };
  const event = {
    id: 'evt_reply_1',
    type: 'thread.reply_received',
    created_at: '2026-01-06T08:30:01.000Z',
    data: {
      thread,
      message: {
        id: '18c2f0a1b2c3d4f9',
        subject: 'Re: Quote',
        from: { email: 'bob@stone.test', name: 'Bob' },
        to: [{ email: 'ada@example.com', name: null }],
        cc: [],
        date: '2026-01-06T08:30:00.000Z',
        snippet: 'Thanks',
        unread: true,
        labels: ['INBOX', 'UNREAD'],
      },
      linked_tasks: [{ id: 'tsk_1', title: 'Call Bob' }],
    },
  };
  const body = JSON.stringify(event);
  const deliver = (signature: string, content = body) =>
    appTester(op('new_thread_reply', 'perform'), {
      authData: authData(),
      inputData: { scope: 'tasked' },
      subscribeData: { id: 'wh_1', secret: SECRET },
      cleanedRequest: JSON.parse(content),
      rawRequest: { content, headers: { 'Http-X-Service-Signature': signature } },
    });

  it('subscribes a v2 webhook on thread.reply_received with the chosen scope and keeps its secret', async () => {
    const minted = jwt(1200, 'minted');
    mintsToken(minted);
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .post('/v2/webhooks/subscriptions', {
        target_url: TARGET_URL,
        events: ['thread.reply_received'],
        filters: { scope: 'all' },
      })
      .reply(200, {
        data: { id: 'wh_1', target_url: TARGET_URL, events: ['thread.reply_received'], secret: SECRET },
        meta: { request_id: 'req_1' },
      });
    const result = await appTester(op('new_thread_reply', 'performSubscribe'), {
      authData: authData(),
      inputData: { scope: 'all' },
      targetUrl: TARGET_URL,
    });
    expect(result).toEqual({ id: 'wh_1', secret: SECRET, scope: 'all' });
  });

  it('subscribes with scope tasked by default', async () => {
    mintsToken(jwt(1200));
    nock(ORIGIN)
      .post('/v2/webhooks/subscriptions', (sent) => sent.filters.scope === 'tasked')
      .reply(200, {
        data: { id: 'wh_2', target_url: TARGET_URL, events: ['thread.reply_received'], secret: SECRET },
        meta: { request_id: 'req_1' },
      });
    const result = await appTester(op('new_thread_reply', 'performSubscribe'), {
      authData: authData(),
      inputData: {},
      targetUrl: TARGET_URL,
    });
    expect(result.scope).toBe('tasked');
  });

  it('unsubscribes with DELETE /v2/webhooks/subscriptions/{id} and a fresh token', async () => {
    const minted = jwt(1200, 'minted');
    mintsToken(minted);
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .delete('/v2/webhooks/subscriptions/wh_1')
      .reply(200, { data: { id: 'wh_1', deleted: true }, meta: { request_id: 'req_1' } });
    const result = await appTester(op('new_thread_reply', 'performUnsubscribe'), {
      authData: authData(),
      subscribeData: { id: 'wh_1', secret: SECRET },
    });
    expect(result).toEqual({});
  });

  it('outputs a correctly signed reply, making no request', async () => {
    const [reply] = await deliver(signPayload(body, SECRET));
    expect(reply).toMatchObject({
      id: 'evt_reply_1',
      thread_id: '18c2f0a1b2c3d4e5',
      message_id: '18c2f0a1b2c3d4f9',
      subject: 'Re: Quote',
      from_email: 'bob@stone.test',
      linked_task_ids: ['tsk_1'],
    });
  });

  it('rejects a bad signature', async () => {
    const error = await rejection(deliver(signPayload(body, 'another_secret')));
    expect(zapierMessage(error)).toMatch(/Rejected a delivery/);
  });

  it('rejects a body changed after signing', async () => {
    const error = await rejection(deliver(signPayload(body, SECRET), body.replace('Thanks', 'Thank')));
    expect(zapierMessage(error)).toMatch(/Rejected a delivery/);
  });

  it('rejects a stale signature (older than 300 s)', async () => {
    const timestamp = Math.floor(Date.now() / 1000) - 301;
    const error = await rejection(deliver(signPayload(body, SECRET, { timestamp })));
    expect(zapierMessage(error)).toMatch(/Rejected a delivery/);
  });

  const withMessages = (linked: Array<{ id: string; title: string }>, id = thread.thread_id) => ({
    data: {
      ...thread,
      thread_id: id,
      linked_tasks: linked,
      messages: [
        { ...event.data.message, id: `${id}-2`, date: '2026-01-06T08:30:00.000Z' },
        {
          ...event.data.message,
          id: `${id}-3`,
          from: { email: 'ada@example.com', name: 'Ada' },
          labels: ['SENT'],
          date: '2026-01-06T09:00:00.000Z',
        },
      ],
    },
    meta: { request_id: 'r' },
  });

  it.each([
    ['tasked', ['18c2f0a1b2c3d4e5']],
    ['all', ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6']],
  ])(
    'samples replies in scope %s as deliveries: sender, linked tasks, an event id',
    async (scope, threadIds) => {
      nock(ORIGIN)
        .get('/v2/email-threads')
        .query({ q: 'in:inbox', limit: '20' })
        .reply(200, {
          data: [thread, { ...thread, thread_id: '18c2f0a1b2c3d4e6' }],
          meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 20 } },
        });
      nock(ORIGIN)
        .get('/v2/email-threads/18c2f0a1b2c3d4e5')
        .query({ include: 'messages' })
        .reply(200, withMessages([{ id: 'tsk_1', title: 'Call Bob' }]));
      nock(ORIGIN)
        .get('/v2/email-threads/18c2f0a1b2c3d4e6')
        .query({ include: 'messages' })
        .reply(200, withMessages([], '18c2f0a1b2c3d4e6'));
      const samples = await appTester(op('new_thread_reply', 'performList'), {
        authData: authData(),
        inputData: { scope },
      });
      expect(samples.map((sample: { thread_id: string }) => sample.thread_id)).toEqual(threadIds);
      const [first] = samples;
      // The newest message someone else sent (not Ada's own reply), shaped as a delivery's output.
      expect(first).toMatchObject({
        message_id: '18c2f0a1b2c3d4e5-2',
        from_email: 'bob@stone.test',
        from_name: 'Bob',
        linked_task_ids: ['tsk_1'],
        linked_task_titles: ['Call Bob'],
      });
      expect(first.id).toMatch(/^evt_/);
      const [delivered] = await deliver(signPayload(body, SECRET));
      expect(Object.keys(first).sort()).toEqual(Object.keys(delivered).sort());
    },
  );

  it('turning the Zap off succeeds when the webhook is already gone', async () => {
    mintsToken(jwt(1200, 'minted'));
    nock(ORIGIN)
      .delete('/v2/webhooks/subscriptions/wh_gone')
      .reply(404, {
        error: { code: 'not_found', message: 'webhook wh_gone was not found', request_id: 'r' },
      });
    const result = await appTester(op('new_thread_reply', 'performUnsubscribe'), {
      authData: authData(),
      subscribeData: { id: 'wh_gone', secret: SECRET },
    });
    expect(result).toEqual({});
  });
});

describe('dropdowns', () => {
  const page = (data: unknown[], next: string | null = null) => ({
    data,
    meta: { request_id: 'r', pagination: { next_cursor: next, has_more: next !== null, limit: 100 } },
  });
  const subscription = { plan: 'pro', status: 'active', paid: true };

  it('teams lists the v2 teams as id and name', async () => {
    nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } })
      .get('/v2/teams')
      .query({ limit: '100' })
      .reply(200, page([{ id: 'team_acme', name: 'Acme', subscription }]));
    const teams = await appTester(op('teams', 'perform'), {
      authData: authData(),
      meta: { page: 0 },
    });
    expect(teams).toEqual([{ id: 'team_acme', name: 'Acme' }]);
  });

  it('boards cascades from the chosen team', async () => {
    const board = {
      id: 'brd_sales',
      name: 'Pipeline',
      board_type: 'sales',
      template: null,
      team_id: 'team_acme',
      subscription,
    };
    nock(ORIGIN)
      .get('/v2/boards')
      .query({ team_id: 'team_acme', limit: '100' })
      .reply(200, page([board]));
    const boards = await appTester(op('boards', 'perform'), {
      authData: authData(),
      inputData: { team_id: 'team_acme' },
      meta: { page: 0 },
    });
    expect(boards).toEqual([
      { id: 'brd_sales', name: 'Pipeline', team_id: 'team_acme', board_type: 'sales' },
    ]);
  });

  it('lists cascades from the chosen board, and asks for a board first', async () => {
    nock(ORIGIN)
      .get('/v2/boards/brd_sales/lists')
      .query({ limit: '100' })
      .reply(200, page([{ id: 'lst_leads', name: 'Leads', board_id: 'brd_sales' }]));
    const lists = await appTester(op('lists', 'perform'), {
      authData: authData(),
      inputData: { board_id: 'brd_sales' },
      meta: { page: 0 },
    });
    expect(lists).toEqual([{ id: 'lst_leads', name: 'Leads', board_id: 'brd_sales' }]);
    const error = await rejection(
      appTester(op('lists', 'perform'), {
        authData: authData(),
        inputData: {},
        meta: { page: 0 },
      }),
    );
    expect(zapierMessage(error)).toContain('Choose a board first');
  });

  it('threads searches the mailbox with q (the inbox by default)', async () => {
    const thread = {
      provider: 'gmail',
      thread_id: 'abc123',
      message_ids: ['abc123'],
      subject: null,
      participants: [{ email: 'bob@stone.test', name: null }],
      latest_message_at: null,
      snippet: 'hi',
      direction: 'inbound',
      unread: false,
    };
    nock(ORIGIN)
      .get('/v2/email-threads')
      .query({ q: 'from:bob', limit: '100' })
      .reply(200, page([thread]));
    const [found] = await appTester(op('threads', 'perform'), {
      authData: authData(),
      inputData: { q: 'from:bob' },
      meta: { page: 0 },
    });
    expect(found).toMatchObject({ id: 'abc123', subject: '(no subject)' });
  });

  it('turns service errors into messages that say what to do', async () => {
    const fail = (status: number, code: string, details?: unknown) =>
      nock(ORIGIN)
        .get('/v2/teams')
        .query(true)
        .reply(status, { error: { code, message: code, request_id: 'r', details } });
    const run = async () =>
      zapierMessage(
        await rejection(appTester(op('teams', 'perform'), { authData: authData(), meta: { page: 0 } })),
      );
    fail(402, 'subscription_required');
    expect(await run()).toContain('no active paid subscription');
    fail(403, 'insufficient_scope', { required_scopes: ['boards.read'] });
    expect(await run()).toContain('"See boards" permission (boards.read)');
    fail(409, 'mailbox_not_connected');
    expect(await run()).toContain('Connect your mailbox');
    fail(409, 'mailbox_reauth_required');
    expect(await run()).toContain('Reconnect your mailbox');
    fail(404, 'not_found');
    expect(await run()).toContain('Not found');
    fail(400, 'validation_error', [{ path: 'team_id', message: 'is required' }]);
    expect(await run()).toContain('Team: is required');
    nock(ORIGIN)
      .get('/v2/teams')
      .query(true)
      .reply(429, { error: { code: 'rate_limited', message: 'slow' } }, { 'retry-after': '7' });
    const throttled = await rejection(
      appTester(op('teams', 'perform'), { authData: authData(), meta: { page: 0 } }),
    );
    expect(throttled.name).toBe('ThrottledError');
  });
});
