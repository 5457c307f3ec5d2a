import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  getMeta,
  InvalidResponseError,
  type Page,
  PagePromise,
  RequestValidationError,
  ThreadworkClient,
  ValidationError,
} from '../src/index.ts';
import {
  API_KEY,
  analysis,
  apiKey,
  BASE_URL,
  board,
  boardMember,
  company,
  contact,
  createdApiKey,
  createdWebhook,
  customField,
  deleted,
  delivery,
  draft,
  emailLabels,
  errorAnswer,
  expectRequests,
  expectV2,
  list,
  mailbox,
  me,
  revokedApiKey,
  rotatedSecret,
  sentMessage,
  task,
  team,
  threadWithMessages,
  UUID,
  webhook,
} from './client-fixtures.ts';
import { emailThread } from './schema-examples.ts';

const THREAD = '18c2f0a1b2c3d4e5';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

function client(options: Partial<ConstructorParameters<typeof ThreadworkClient>[0]> = {}) {
  return new ThreadworkClient({ baseUrl: BASE_URL, apiKey: API_KEY, maxRetries: 0, ...options });
}

interface OperationCase {
  name: string;
  call: (client: ThreadworkClient) => Promise<unknown>;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  /** The JSON body the service must receive; absent means no body at all. */
  body?: unknown;
  /** What the service answers as `data`. */
  data: unknown;
  /** List operations answer an array and resolve to a Page. */
  list?: boolean;
}

const future = new Date(Date.now() + 86_400_000).toISOString();

/** Every v2 operation: the API's endpoint table and the paths of the OpenAPI document (docs/openapi.md). */
const operations: OperationCase[] = [
  { name: 'me.get', call: (c) => c.me.get(), method: 'GET', path: '/v2/me', data: me() },
  {
    name: 'teams.list',
    call: (c) => c.teams.list({ limit: 10 }),
    method: 'GET',
    path: '/v2/teams',
    query: { limit: '10' },
    data: [team()],
    list: true,
  },
  {
    name: 'teams.get',
    call: (c) => c.teams.get('team_acme'),
    method: 'GET',
    path: '/v2/teams/team_acme',
    data: team(),
  },
  {
    name: 'boards.list',
    call: (c) => c.boards.list({ team_id: 'team_acme' }),
    method: 'GET',
    path: '/v2/boards',
    query: { team_id: 'team_acme' },
    data: [board()],
    list: true,
  },
  {
    name: 'boards.listPersonal',
    call: (c) => c.boards.listPersonal({ limit: 50 }),
    method: 'GET',
    path: '/v2/personal-boards',
    query: { limit: '50' },
    data: [{ ...board(), team_id: null, board_type: 'private', subscription: null }],
    list: true,
  },
  {
    name: 'boards.create',
    call: (c) => c.boards.create({ team_id: 'team_acme', name: 'Pipeline' }),
    method: 'POST',
    path: '/v2/boards',
    body: { team_id: 'team_acme', name: 'Pipeline' },
    data: board(),
  },
  {
    name: 'boards.get',
    call: (c) => c.boards.get('brd_sales'),
    method: 'GET',
    path: '/v2/boards/brd_sales',
    data: board(),
  },
  {
    name: 'boards.update',
    call: (c) => c.boards.update('brd_sales', { name: 'Deals' }),
    method: 'PATCH',
    path: '/v2/boards/brd_sales',
    body: { name: 'Deals' },
    data: board(),
  },
  {
    name: 'boards.members',
    call: (c) => c.boards.members('brd_sales', { limit: 2, cursor: 'c1' }),
    method: 'GET',
    path: '/v2/boards/brd_sales/members',
    query: { limit: '2', cursor: 'c1' },
    data: [boardMember()],
    list: true,
  },
  {
    name: 'lists.list',
    call: (c) => c.lists.list('brd_sales'),
    method: 'GET',
    path: '/v2/boards/brd_sales/lists',
    query: {},
    data: [list()],
    list: true,
  },
  {
    name: 'lists.create',
    call: (c) => c.lists.create('brd_sales', { name: 'Leads' }),
    method: 'POST',
    path: '/v2/boards/brd_sales/lists',
    body: { name: 'Leads' },
    data: list(),
  },
  {
    name: 'lists.update',
    call: (c) => c.lists.update('lst_leads', { name: 'Hot leads' }),
    method: 'PATCH',
    path: '/v2/lists/lst_leads',
    body: { name: 'Hot leads' },
    data: list(),
  },
  {
    name: 'customFields.list',
    call: (c) => c.customFields.list('brd_sales'),
    method: 'GET',
    path: '/v2/boards/brd_sales/custom-fields',
    data: [customField()],
    list: true,
  },
  {
    name: 'customFields.create',
    call: (c) =>
      c.customFields.create('brd_sales', {
        name: 'Priority',
        type: 'tag',
        options: [{ label: 'High' }],
        display_on_card: true,
      }),
    method: 'POST',
    path: '/v2/boards/brd_sales/custom-fields',
    body: { name: 'Priority', type: 'tag', options: [{ label: 'High' }], display_on_card: true },
    data: customField(),
  },
  {
    name: 'customFields.update',
    call: (c) => c.customFields.update('cf_prio', { options: [{ id: 'opt_high', label: 'Urgent' }] }),
    method: 'PATCH',
    path: '/v2/custom-fields/cf_prio',
    body: { options: [{ id: 'opt_high', label: 'Urgent' }] },
    data: customField(),
  },
  {
    name: 'tasks.list',
    call: (c) => c.tasks.list({ list_id: 'lst_todo', completed: false, limit: 25 }),
    method: 'GET',
    path: '/v2/tasks',
    query: { list_id: 'lst_todo', completed: 'false', limit: '25' },
    data: [task()],
    list: true,
  },
  {
    name: 'tasks.get',
    call: (c) => c.tasks.get('tsk_01hq3v'),
    method: 'GET',
    path: '/v2/tasks/tsk_01hq3v',
    data: task(),
  },
  {
    name: 'tasks.create',
    call: (c) => c.tasks.create({ list_id: 'lst_todo', title: 'Send the contract', position: 'bottom' }),
    method: 'POST',
    path: '/v2/tasks',
    body: { list_id: 'lst_todo', title: 'Send the contract', position: 'bottom' },
    data: task(),
  },
  {
    name: 'tasks.update',
    call: (c) =>
      c.tasks.update('tsk_01hq3v', {
        shade: 'red',
        custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }],
      }),
    method: 'PATCH',
    path: '/v2/tasks/tsk_01hq3v',
    body: { shade: 'red', custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }] },
    data: task(),
  },
  {
    name: 'tasks.complete',
    call: (c) => c.tasks.complete('tsk_01hq3v'),
    method: 'POST',
    path: '/v2/tasks/tsk_01hq3v/complete',
    data: { ...task(), completed: true },
  },
  {
    name: 'tasks.move',
    call: (c) => c.tasks.move('tsk_01hq3v', { list_id: 'lst_done', after_task_id: 'tsk_2' }),
    method: 'POST',
    path: '/v2/tasks/tsk_01hq3v/move',
    body: { list_id: 'lst_done', after_task_id: 'tsk_2' },
    data: task(),
  },
  {
    name: 'tasks.reorder',
    call: (c) => c.tasks.reorder('tsk_01hq3v', { position: 'top' }),
    method: 'POST',
    path: '/v2/tasks/tsk_01hq3v/reorder',
    body: { position: 'top' },
    data: { id: 'tsk_01hq3v', after_task_id: null, position_index: 0, persisted: true },
  },
  {
    name: 'tasks.linkThread',
    call: (c) => c.tasks.linkThread('tsk_01hq3v', { thread_id: THREAD, archive: true }),
    method: 'POST',
    path: '/v2/tasks/tsk_01hq3v/threads',
    body: { thread_id: THREAD, archive: true },
    data: { id: 'tsk_01hq3v', thread_ids: [THREAD] },
  },
  {
    name: 'tasks.archive',
    call: (c) => c.tasks.archive('tsk_01hq3v'),
    method: 'POST',
    path: '/v2/tasks/tsk_01hq3v/archive',
    data: task(),
  },
  {
    name: 'tasks.delete',
    call: (c) => c.tasks.delete('tsk_01hq3v'),
    method: 'DELETE',
    path: '/v2/tasks/tsk_01hq3v',
    data: deleted('tsk_01hq3v'),
  },
  {
    name: 'contacts.list',
    call: (c) => c.contacts.list({ team_id: 'team_acme', q: 'bob' }),
    method: 'GET',
    path: '/v2/contacts',
    query: { team_id: 'team_acme', q: 'bob' },
    data: [contact()],
    list: true,
  },
  {
    name: 'contacts.create',
    call: (c) => c.contacts.create({ team_id: 'team_acme', name: 'Bob Stone', company_name: 'Stone Ltd' }),
    method: 'POST',
    path: '/v2/contacts',
    // The schema's default (type general) is sent, so the service sees the same body on every retry.
    body: { team_id: 'team_acme', name: 'Bob Stone', company_name: 'Stone Ltd', type: 'general' },
    data: contact(),
  },
  {
    name: 'contacts.get',
    call: (c) => c.contacts.get('con_bob'),
    method: 'GET',
    path: '/v2/contacts/con_bob',
    data: contact(),
  },
  {
    name: 'contacts.update',
    call: (c) => c.contacts.update('con_bob', { stage: 'Customer' }),
    method: 'PATCH',
    path: '/v2/contacts/con_bob',
    body: { stage: 'Customer' },
    data: contact(),
  },
  {
    name: 'companies.list',
    call: (c) => c.companies.list({ team_id: 'team_acme' }),
    method: 'GET',
    path: '/v2/companies',
    query: { team_id: 'team_acme' },
    data: [company()],
    list: true,
  },
  {
    name: 'companies.create',
    call: (c) => c.companies.create({ team_id: 'team_acme', name: 'Stone Ltd', tags: ['vip'] }),
    method: 'POST',
    path: '/v2/companies',
    body: { team_id: 'team_acme', name: 'Stone Ltd', tags: ['vip'] },
    data: company(),
  },
  {
    name: 'companies.get',
    call: (c) => c.companies.get('cmp_stone'),
    method: 'GET',
    path: '/v2/companies/cmp_stone',
    data: company(),
  },
  {
    name: 'companies.update',
    call: (c) => c.companies.update('cmp_stone', { stage: 'Customer' }),
    method: 'PATCH',
    path: '/v2/companies/cmp_stone',
    body: { stage: 'Customer' },
    data: company(),
  },
  { name: 'mailbox.get', call: (c) => c.mailbox.get(), method: 'GET', path: '/v2/mailbox', data: mailbox() },
  {
    name: 'emailLabels.list',
    call: (c) => c.emailLabels.list(),
    method: 'GET',
    path: '/v2/email-labels',
    data: emailLabels(),
  },
  {
    name: 'emailThreads.search',
    call: (c) => c.emailThreads.search({ q: 'from:bob is:unread' }),
    method: 'GET',
    path: '/v2/email-threads',
    query: { q: 'from:bob is:unread' },
    data: [emailThread()],
    list: true,
  },
  {
    name: 'emailThreads.get',
    call: (c) => c.emailThreads.get(THREAD, { include: 'messages' }),
    method: 'GET',
    path: `/v2/email-threads/${THREAD}`,
    query: { include: 'messages' },
    data: threadWithMessages(),
  },
  {
    name: 'emailThreads.changeLabels',
    call: (c) => c.emailThreads.changeLabels(THREAD, { add: ['Label_1'], remove: ['INBOX'] }),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/labels`,
    body: { add: ['Label_1'], remove: ['INBOX'] },
    data: emailThread(),
  },
  {
    name: 'emailThreads.setReadState',
    call: (c) => c.emailThreads.setReadState(THREAD, { read: true }),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/read-state`,
    body: { read: true },
    data: { ...emailThread(), unread: false },
  },
  {
    name: 'emailThreads.snooze',
    call: (c) => c.emailThreads.snooze(THREAD, { until: future }),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/snooze`,
    body: { until: future },
    data: emailThread(),
  },
  {
    name: 'emailThreads.createDraft',
    call: (c) => c.emailThreads.createDraft(THREAD, { body: '<p>Here it is</p>' }),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/drafts`,
    body: { body: '<p>Here it is</p>', is_html: true },
    data: draft(),
  },
  {
    name: 'emailThreads.reply',
    call: (c) => c.emailThreads.reply(THREAD, { body: 'Thanks!', is_html: false, mode: 'reply_all' }),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/reply`,
    body: { body: 'Thanks!', is_html: false, mode: 'reply_all' },
    data: sentMessage(),
  },
  {
    name: 'emailThreads.analyze',
    call: (c) => c.emailThreads.analyze(THREAD),
    method: 'POST',
    path: `/v2/email-threads/${THREAD}/analysis`,
    data: analysis(),
  },
  {
    name: 'emailThreads.getAnalysis',
    call: (c) => c.emailThreads.getAnalysis(THREAD),
    method: 'GET',
    path: `/v2/email-threads/${THREAD}/analysis`,
    data: analysis(),
  },
  {
    name: 'drafts.create',
    call: (c) => c.drafts.create({ to: ['bob@stone.test'], subject: 'Quote', body: '' }),
    method: 'POST',
    path: '/v2/drafts',
    body: { to: ['bob@stone.test'], subject: 'Quote', body: '', is_html: true },
    data: draft(),
  },
  {
    name: 'drafts.list',
    call: (c) => c.drafts.list(),
    method: 'GET',
    path: '/v2/drafts',
    data: [draft()],
    list: true,
  },
  {
    name: 'drafts.send',
    call: (c) => c.drafts.send('r-8812'),
    method: 'POST',
    path: '/v2/drafts/r-8812/send',
    data: sentMessage(),
  },
  {
    name: 'drafts.delete',
    call: (c) => c.drafts.delete('r-8812'),
    method: 'DELETE',
    path: '/v2/drafts/r-8812',
    data: deleted('r-8812'),
  },
  {
    name: 'emails.send',
    call: (c) =>
      c.emails.send({ to: ['bob@stone.test'], subject: 'Hello', body: 'Hi Bob', thread_id: THREAD }),
    method: 'POST',
    path: '/v2/emails',
    body: { to: ['bob@stone.test'], subject: 'Hello', body: 'Hi Bob', thread_id: THREAD, is_html: true },
    data: sentMessage(),
  },
  {
    name: 'webhooks.create',
    call: (c) =>
      c.webhooks.create({ target_url: 'https://hooks.example.com/threadwork', events: ['task.created'] }),
    method: 'POST',
    path: '/v2/webhooks/subscriptions',
    body: { target_url: 'https://hooks.example.com/threadwork', events: ['task.created'] },
    data: createdWebhook(),
  },
  {
    name: 'webhooks.list',
    call: (c) => c.webhooks.list(),
    method: 'GET',
    path: '/v2/webhooks/subscriptions',
    data: [webhook()],
    list: true,
  },
  {
    name: 'webhooks.get',
    call: (c) => c.webhooks.get('wh_1'),
    method: 'GET',
    path: '/v2/webhooks/subscriptions/wh_1',
    data: webhook(),
  },
  {
    name: 'webhooks.update',
    call: (c) => c.webhooks.update('wh_1', { status: 'disabled' }),
    method: 'PATCH',
    path: '/v2/webhooks/subscriptions/wh_1',
    body: { status: 'disabled' },
    data: { ...webhook(), status: 'disabled' },
  },
  {
    name: 'webhooks.delete',
    call: (c) => c.webhooks.delete('wh_1'),
    method: 'DELETE',
    path: '/v2/webhooks/subscriptions/wh_1',
    data: deleted('wh_1'),
  },
  {
    name: 'webhooks.test',
    call: (c) => c.webhooks.test('wh_1'),
    method: 'POST',
    path: '/v2/webhooks/subscriptions/wh_1/test',
    data: delivery(),
  },
  {
    name: 'webhooks.rotateSecret',
    call: (c) => c.webhooks.rotateSecret('wh_1'),
    method: 'POST',
    path: '/v2/webhooks/subscriptions/wh_1/rotate-secret',
    data: rotatedSecret(),
  },
  {
    name: 'webhooks.listDeliveries',
    call: (c) => c.webhooks.listDeliveries('wh_1', { status: 'failed' }),
    method: 'GET',
    path: '/v2/webhooks/subscriptions/wh_1/deliveries',
    query: { status: 'failed' },
    data: [delivery()],
    list: true,
  },
  {
    name: 'webhooks.replayDelivery',
    call: (c) => c.webhooks.replayDelivery('dlv_1'),
    method: 'POST',
    path: '/v2/webhooks/deliveries/dlv_1/replay',
    data: delivery(),
  },
  {
    name: 'apiKeys.list',
    call: (c) => c.apiKeys.list(),
    method: 'GET',
    path: '/v2/api-keys',
    data: [apiKey()],
    list: true,
  },
  {
    name: 'apiKeys.create',
    call: (c) => c.apiKeys.create({ name: 'ci', scopes: ['boards.read'] }),
    method: 'POST',
    path: '/v2/api-keys',
    body: { name: 'ci', scopes: ['boards.read'], type: 'v2' },
    data: createdApiKey(),
  },
  {
    name: 'apiKeys.delete',
    call: (c) => c.apiKeys.delete('key_v2'),
    method: 'DELETE',
    path: '/v2/api-keys/key_v2',
    data: revokedApiKey('key_v2'),
  },
];

describe('every v2 operation', () => {
  it.each(operations.map((operation) => [operation.name, operation] as const))(
    '%s sends the documented request and resolves to the parsed data',
    async (_name, operation) => {
      const recorded = expectV2(operation.method, operation.path, operation.data);
      const result = await operation.call(client());

      expect(recorded).toHaveLength(1);
      const [request] = recorded;
      expect(request?.method).toBe(operation.method);
      expect(request?.path).toBe(operation.path);
      expect(request?.query).toEqual(operation.query ?? {});
      expect(request?.body).toEqual(operation.body);
      expect(request?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
      expect(request?.headers['accept']).toBe('application/json');
      expect(request?.headers['x-access-token']).toBeUndefined();
      if (operation.body === undefined) {
        expect(request?.headers['content-type']).toBeUndefined();
      } else {
        expect(request?.headers['content-type']).toBe('application/json');
      }
      if (operation.method === 'GET') {
        expect(request?.headers['idempotency-key']).toBeUndefined();
      } else {
        expect(request?.headers['idempotency-key']).toMatch(UUID);
      }

      if (operation.list) {
        const page = result as Page<unknown>;
        expect(page.data).toEqual(operation.data);
        expect(page.meta.request_id).toBe('req_ok');
      } else {
        expect(result).toEqual(operation.data);
        expect(getMeta(result as object)).toEqual({ request_id: 'req_ok' });
      }
    },
  );

  it('covers every method of every resource', () => {
    const instance = client();
    const methods = Object.entries(instance).flatMap(([resource, group]) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(group))
        .filter((name) => name !== 'constructor')
        .map((name) => `${resource}.${name}`),
    );
    expect(methods.sort()).toEqual(operations.map((operation) => operation.name).sort());
  });
});

describe('idempotency keys', () => {
  it('uses the caller key when given', async () => {
    const recorded = expectV2('POST', '/v2/tasks/tsk_1/complete', task());
    await client().tasks.complete('tsk_1', { idempotencyKey: 'zap-run-41-complete' });
    expect(recorded[0]?.headers['idempotency-key']).toBe('zap-run-41-complete');
  });

  it('generates a different key for each write', async () => {
    const first = expectV2('POST', '/v2/tasks/tsk_1/archive', task());
    const second = expectV2('POST', '/v2/tasks/tsk_1/archive', task());
    const c = client();
    await c.tasks.archive('tsk_1');
    await c.tasks.archive('tsk_1');
    expect(first[0]?.headers['idempotency-key']).toMatch(UUID);
    expect(second[0]?.headers['idempotency-key']).toMatch(UUID);
    expect(first[0]?.headers['idempotency-key']).not.toBe(second[0]?.headers['idempotency-key']);
  });
});

describe('parsing answers', () => {
  it('keeps fields the client does not know, without meta in the data', async () => {
    const answer = {
      ...task(),
      priority_score: 0.93,
      assignee: { name: 'Ada', email: null, avatar: 'a.png' },
    };
    expectRequests('GET', '/v2/tasks/tsk_1', [
      {
        body: { data: answer, meta: { request_id: 'req_7', trace: 'abc' }, links: { self: '/tasks/tsk_1' } },
      },
    ]);
    const result = await client().tasks.get('tsk_1');
    expect(result).toEqual(answer);
    expect(result).not.toHaveProperty('meta');
    expect(getMeta(result)).toEqual({ request_id: 'req_7', trace: 'abc' });
  });

  it('accepts enum values added after this client was written', async () => {
    expectV2('GET', '/v2/boards/brd_x', { ...board(), board_type: 'kanban' });
    expect((await client().boards.get('brd_x')).board_type).toBe('kanban');
  });

  it('rejects an answer that lacks a required field, naming it', async () => {
    const { title: _dropped, ...withoutTitle } = task();
    expectV2('GET', '/v2/tasks/tsk_1', withoutTitle);
    const error = await client()
      .tasks.get('tsk_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).message).toContain('data.title');
    expect((error as InvalidResponseError).requestId).toBe('req_ok');
  });

  it('rejects a success answer that is not JSON', async () => {
    expectRequests('GET', '/v2/me', [{ body: '<html>maintenance</html>' }]);
    const error = await client()
      .me.get()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).status).toBe(200);
  });
});

describe('client-side validation', () => {
  it('rejects a bad body naming the path, and sends nothing', async () => {
    const recorded = expectV2('POST', '/v2/tasks', task());
    const error = await client()
      .tasks.create({ list_id: 'lst_todo' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    const validation = error as RequestValidationError;
    expect(validation.status).toBeUndefined();
    expect(validation.code).toBe('validation_error');
    expect(validation.details).toEqual([
      { path: 'title', message: 'title is required unless thread_id is sent' },
    ]);
    expect(validation.message).toContain('title');
    expect(recorded).toEqual([]);
    expect(nock.pendingMocks()).toHaveLength(1);
  });

  it('rejects a nested bad value with its full path', async () => {
    const recorded = expectV2('PATCH', '/v2/tasks/tsk_1', task());
    const error = await client()
      .tasks.update('tsk_1', { custom_fields: [{ field_id: 'cf_prio', value: { nested: true } as never }] })
      .catch((caught: unknown) => caught);
    expect((error as RequestValidationError).details).toEqual([
      expect.objectContaining({ path: 'custom_fields.0.value' }),
    ]);
    expect(recorded).toEqual([]);
  });

  it('rejects reply recipients before sending', async () => {
    const recorded = expectV2('POST', `/v2/email-threads/${THREAD}/reply`, sentMessage());
    const error = await client()
      .emailThreads.reply(THREAD, { body: 'hi', to: ['eve@example.com'] })
      .catch((caught: unknown) => caught);
    expect((error as RequestValidationError).details).toEqual([expect.objectContaining({ path: 'to' })]);
    expect(recorded).toEqual([]);
  });

  it('rejects a list query the service would refuse, as a rejected promise', async () => {
    const recorded = expectV2('GET', '/v2/tasks', [task()]);
    const pending = client().tasks.list({ list_id: 'lst_1', board_id: 'brd_1' });
    expect(pending).toBeInstanceOf(PagePromise);
    await expect(pending).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client().teams.list({ limit: 500 })).rejects.toMatchObject({
      details: [expect.objectContaining({ path: 'limit' })],
    });
    expect(recorded).toEqual([]);
  });

  it('rejects an empty id instead of calling a different path', async () => {
    await expect(client().tasks.get('')).rejects.toMatchObject({
      details: [{ path: 'task id', message: 'must be a non-empty string' }],
    });
  });

  it('escapes ids placed in a path', async () => {
    const recorded = expectV2('GET', '/v2/tasks/a%2Fb%3Fc', task());
    await client().tasks.get('a/b?c');
    expect(recorded[0]?.path).toBe('/v2/tasks/a%2Fb%3Fc');
  });
});

describe('pagination', () => {
  function pageAnswer(ids: string[], nextCursor: string | null, sample: () => object = task) {
    return {
      body: {
        data: ids.map((id) => ({ ...sample(), id })),
        meta: {
          request_id: `req_${ids[0]}`,
          pagination: { next_cursor: nextCursor, has_more: nextCursor !== null, limit: 2 },
        },
      },
    };
  }

  it('walks three pages with their cursors and stops after the last', async () => {
    const recorded = expectRequests('GET', '/v2/tasks', [
      pageAnswer(['tsk_1', 'tsk_2'], 'cur_b'),
      pageAnswer(['tsk_3', 'tsk_4'], 'cur_c'),
      pageAnswer(['tsk_5'], null),
    ]);
    const ids: string[] = [];
    for await (const item of client().tasks.list({ list_id: 'lst_todo', limit: 2 })) ids.push(item.id);

    expect(ids).toEqual(['tsk_1', 'tsk_2', 'tsk_3', 'tsk_4', 'tsk_5']);
    expect(recorded.map((request) => request.query)).toEqual([
      { list_id: 'lst_todo', limit: '2' },
      { list_id: 'lst_todo', limit: '2', cursor: 'cur_b' },
      { list_id: 'lst_todo', limit: '2', cursor: 'cur_c' },
    ]);
  });

  it('gives the first page on await, and the next ones on demand', async () => {
    expectRequests('GET', '/v2/teams', [
      pageAnswer(['team_a'], 'cur_2', team),
      pageAnswer(['team_b'], null, team),
    ]);
    const first = await client().teams.list();
    expect(first.data.map((item) => item.id)).toEqual(['team_a']);
    expect(first.hasMore).toBe(true);
    expect(first.nextCursor).toBe('cur_2');
    expect(getMeta(first.data)?.request_id).toBe('req_team_a');

    const second = await first.nextPage();
    expect(second?.data.map((item) => item.id)).toEqual(['team_b']);
    expect(second?.hasMore).toBe(false);
    expect(second?.nextCursor).toBeNull();
    expect(await second?.nextPage()).toBeNull();
  });

  it('treats a list answer without pagination meta as a single page', async () => {
    expectV2('GET', '/v2/drafts', [draft()]);
    const page = await client().drafts.list();
    expect(page.hasMore).toBe(false);
    expect(await page.nextPage()).toBeNull();
  });

  it('stops instead of looping when the service repeats a cursor', async () => {
    expectRequests('GET', '/v2/webhooks/subscriptions', [
      {
        body: {
          data: [webhook()],
          meta: { request_id: 'r1', pagination: { next_cursor: 'same', has_more: true, limit: 1 } },
        },
      },
      {
        body: {
          data: [webhook()],
          meta: { request_id: 'r2', pagination: { next_cursor: 'same', has_more: true, limit: 1 } },
        },
      },
    ]);
    let count = 0;
    for await (const _subscription of client().webhooks.list({ limit: 1 })) count++;
    expect(count).toBe(2);
  });
});

describe('legacy token auth on v2', () => {
  it('sends a fixed token as x-access-token and no Authorization', async () => {
    const recorded = expectV2('GET', '/v2/me', { ...me(), key: undefined });
    await client({ apiKey: undefined, accessToken: 'jwt.fixed.token' }).me.get();
    expect(recorded[0]?.headers['x-access-token']).toBe('jwt.fixed.token');
    expect(recorded[0]?.headers['authorization']).toBeUndefined();
  });

  it('on a 401 asks the token function once more and retries once, with the same idempotency key', async () => {
    const recorded = expectRequests('POST', '/v2/tasks', [
      errorAnswer(401, 'unauthenticated'),
      { body: { data: task(), meta: { request_id: 'req_ok' } } },
    ]);
    const calls: boolean[] = [];
    const tokens = ['token-old', 'token-new'];
    const c = client({
      apiKey: undefined,
      accessToken: ({ refresh }) => {
        calls.push(refresh);
        return tokens[calls.length - 1] ?? 'token-extra';
      },
    });
    await c.tasks.create({ list_id: 'lst_todo', title: 'Call Bob' });

    expect(calls).toEqual([false, true]);
    expect(recorded.map((request) => request.headers['x-access-token'])).toEqual(['token-old', 'token-new']);
    expect(recorded[1]?.headers['idempotency-key']).toBe(recorded[0]?.headers['idempotency-key']);
  });

  it('gives up after the one retry', async () => {
    expectRequests('GET', '/v2/me', [
      errorAnswer(401, 'unauthenticated'),
      errorAnswer(401, 'unauthenticated'),
    ]);
    let calls = 0;
    const c = client({ apiKey: undefined, accessToken: async () => `token-${++calls}` });
    await expect(c.me.get()).rejects.toBeInstanceOf(AuthenticationError);
    expect(calls).toBe(2);
  });

  it('does not retry a 401 with a fixed API key', async () => {
    expectRequests('GET', '/v2/me', [errorAnswer(401, 'unauthenticated')]);
    await expect(client().me.get()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('construction', () => {
  it('needs exactly one of apiKey and accessToken', () => {
    expect(() => new ThreadworkClient({ baseUrl: BASE_URL })).toThrow(/exactly one of apiKey or accessToken/);
    expect(() => new ThreadworkClient({ baseUrl: BASE_URL, apiKey: 'k', accessToken: 't' })).toThrow(
      /exactly one/,
    );
    expect(() => new ThreadworkClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(/not a URL/);
    expect(() => new ThreadworkClient({ baseUrl: BASE_URL, apiKey: 'pasted\nwith a newline' })).toThrow(
      TypeError,
    );
    expect(() => new ThreadworkClient({ baseUrl: BASE_URL, apiKey: 'k', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
  });

  it('accepts a base URL with a trailing slash and sends a custom user agent', async () => {
    const recorded = expectV2('GET', '/v2/me', me());
    await client({ baseUrl: `${BASE_URL}/`, userAgent: 'zapier-app/1.2.0' }).me.get();
    expect(recorded[0]?.headers['user-agent']).toBe('zapier-app/1.2.0');
  });

  it('sends through a caller-supplied fetch', async () => {
    const seen: string[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      seen.push(`${init?.method} ${String(input)}`);
      return Response.json({ data: me(), meta: { request_id: 'req_f' } });
    };
    const result = await client({ fetch: fetchSpy }).me.get();
    expect(result.user_id).toBe('usr_ada');
    expect(seen).toEqual([`GET ${BASE_URL}/me`]);
  });

  it("sends no body on a read and the JSON on a write through a caller's fetch, where Request has no body getter (Firefox)", async () => {
    const sent: { method: string | undefined; body: unknown }[] = [];
    const fetchSpy: typeof fetch = async (_input, init) => {
      sent.push({ method: init?.method, body: init?.body });
      return Response.json({ data: me(), meta: { request_id: 'req_f' } });
    };
    const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, 'body')!;
    Object.defineProperty(Request.prototype, 'body', { configurable: true, get: () => undefined });
    try {
      await client({ fetch: fetchSpy }).me.get();
      await client({ fetch: fetchSpy })
        .tasks.create({ list_id: 'lst_1', title: 'Call Bob' }, { idempotencyKey: 'key-firefox' })
        .catch(() => {});
    } finally {
      Object.defineProperty(Request.prototype, 'body', descriptor);
    }
    expect(sent[0]).toEqual({ method: 'GET', body: undefined });
    expect(sent[1]?.method).toBe('POST');
    expect(JSON.parse(String(sent[1]?.body))).toMatchObject({ list_id: 'lst_1', title: 'Call Bob' });
  });
});
