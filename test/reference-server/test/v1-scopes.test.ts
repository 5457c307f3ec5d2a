// v1 is held to the key's scopes (docs/scopes-and-keys.md, "v1 endpoints and their scopes"): a v1
// request needs the scope of the v2 operation it matches, checked against the legacy key its session
// token was minted from, else 403 insufficient_scope in the shared error body, naming the scope, and
// nothing changes. A key with every scope (the demo's) reaches every v1 endpoint.
import { SCOPES, type Scope } from '@threadwork/shared/schemas';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { DEMO_CREDENTIALS, demoSeed, type SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import {
  readAnswer,
  readBody,
  startRunningTestServer,
  startTestServer,
  type TestServer,
} from './helpers/server.ts';

const THREAD = '18c2f0a1b2c3d4e5';
const READ_ONLY: Scope[] = ['boards.read', 'lists.read', 'tasks.read', 'crm.read'];

const legacyKey = (id: string, scopes: Scope[]) => ({
  id,
  user_id: 'usr_ada',
  type: 'legacy' as const,
  name: id,
  api_key: `${id.replaceAll('_', '')}public`,
  api_secret: `${id.replaceAll('_', '')}secret`,
  scopes,
});

/** The fixture seed, a mailbox thread for createFromEmail, and legacy keys of chosen scopes. */
const seed = {
  ...fixtureSeed,
  mailboxes: [
    {
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      threads: [
        {
          id: THREAD,
          messages: [
            {
              id: THREAD,
              from: { email: 'bob@stone.test', name: 'Bob' },
              to: [{ email: 'ada@example.com', name: null }],
              subject: 'Quote',
              date: '2026-01-05T09:00:00Z',
              labels: ['INBOX'],
            },
          ],
        },
      ],
    },
  ],
  api_keys: [
    ...fixtureSeed.api_keys,
    legacyKey('key_read_only', READ_ONLY),
    legacyKey('key_tasks_write', ['tasks.write']),
    legacyKey('key_hooks', ['webhooks.manage']),
  ],
} satisfies SeedInput;

async function tokenOf(
  server: TestServer,
  credentials: { email: string; api_key: string; api_secret: string; api_key_name: string },
): Promise<string> {
  const response = await fetch(`${server.origin}/auth/api_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(response.status).toBe(200);
  return (await readBody(response))['x-access-token'];
}

const seededToken = (server: TestServer, key: ReturnType<typeof legacyKey>) =>
  tokenOf(server, {
    email: 'ada@example.com',
    api_key: key.api_key,
    api_secret: key.api_secret,
    api_key_name: key.name,
  });

interface V1Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** What the endpoint needs (docs/scopes-and-keys.md). */
  scopes: Scope[];
}

/** Every v1 endpoint, with a request each that succeeds for a key holding every scope. */
function everyV1Call(ids: {
  team: string;
  board: string;
  list: string;
  otherList: string;
  item: string;
  thread: string;
  assignee: string;
  hookUrl: string;
  itemHook: string;
  listHook: string;
}): V1Call[] {
  const { item } = ids;
  return [
    { method: 'GET', path: '/teams', scopes: ['boards.read'] },
    { method: 'GET', path: `/boards?teamId=${ids.team}`, scopes: ['boards.read'] },
    { method: 'GET', path: `/lists?boardId=${ids.board}`, scopes: ['lists.read'] },
    { method: 'GET', path: `/items?boardId=${ids.board}`, scopes: ['tasks.read'] },
    { method: 'GET', path: `/items?listId=${ids.list}`, scopes: ['tasks.read'] },
    { method: 'POST', path: '/items', body: { listId: ids.list, title: 'From v1' }, scopes: ['tasks.write'] },
    {
      method: 'POST',
      path: '/items/createFromEmail',
      body: { providerId: 'gmail', listId: ids.list, messageId: ids.thread, threadId: ids.thread },
      // Like v2's POST /tasks with thread_id: the task is built from the thread.
      scopes: ['tasks.write', 'email.metadata.read'],
    },
    { method: 'POST', path: '/items/markComplete', body: { itemId: item }, scopes: ['tasks.write'] },
    { method: 'POST', path: '/items/markIncomplete', body: { itemId: item }, scopes: ['tasks.write'] },
    {
      method: 'POST',
      path: '/items/assignTask',
      body: { itemId: item, assigneeEmail: ids.assignee },
      scopes: ['tasks.write'],
    },
    {
      method: 'POST',
      path: '/items/unassignTask',
      body: { itemId: item, assigneeEmail: ids.assignee },
      scopes: ['tasks.write'],
    },
    {
      method: 'POST',
      path: '/items/moveTaskToList',
      body: { itemId: item, listId: ids.otherList },
      scopes: ['tasks.write'],
    },
    {
      method: 'POST',
      path: '/items/subscribe',
      body: { action: 'createOnBoard', entityId: ids.board, webhookURL: ids.hookUrl, apiService: 'zapier' },
      scopes: ['webhooks.manage'],
    },
    {
      method: 'POST',
      path: '/lists/subscribe',
      body: { action: 'movedToList', entityId: ids.list, webhookURL: ids.hookUrl, apiService: 'zapier' },
      scopes: ['webhooks.manage'],
    },
    {
      method: 'POST',
      path: '/items/unsubscribe',
      body: { subscriptionId: ids.itemHook },
      scopes: ['webhooks.manage'],
    },
    {
      method: 'POST',
      path: '/lists/unsubscribe',
      body: { subscriptionId: ids.listHook },
      scopes: ['webhooks.manage'],
    },
  ];
}

/** Sends one call; an unsubscribe takes the id the matching subscribe answered (`made`). */
async function send(server: TestServer, token: string, call: V1Call, made = new Map<string, string>()) {
  const object = /^\/(items|lists)\/unsubscribe$/.exec(call.path)?.[1];
  const body = object && made.has(object) ? { subscriptionId: made.get(object) } : call.body;
  const response = await server.v1(call.path, {
    method: call.method,
    token,
    ...(body === undefined ? {} : { body }),
  });
  // An unsubscribe answers 200 with no body.
  const text = await response.text();
  const answer = { status: response.status, headers: response.headers, body: text && JSON.parse(text) };
  const subscribed = /^\/(items|lists)\/subscribe$/.exec(call.path)?.[1];
  if (subscribed && answer.status === 200) made.set(subscribed, answer.body.id);
  return answer;
}

/**
 * Sends every call with `token`: each the key's scopes cover answers 200; each other one 403
 * insufficient_scope in the shared body, naming exactly the scopes the key lacks.
 */
async function expectHeldTo(server: TestServer, token: string, held: readonly Scope[], calls: V1Call[]) {
  const made = new Map<string, string>();
  for (const call of calls) {
    const answer = await send(server, token, call, made);
    const lacking = call.scopes.filter((scope) => !held.includes(scope));
    const where = `${call.method} ${call.path}`;
    if (lacking.length === 0) {
      expect([where, answer.status, answer.body]).toEqual([where, 200, answer.body]);
      continue;
    }
    expect([where, answer.status]).toEqual([where, 403]);
    expect(answer.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scopes: lacking },
      request_id: answer.headers.get('x-request-id'),
    });
    for (const scope of lacking) expect(answer.body.error.message).toContain(scope);
  }
}

describe('a legacy key with some scopes, on v1', () => {
  let server: TestServer;
  let db: Kysely<Database>;
  let allToken: string;
  const kept = { items: '', lists: '' };
  const calls = () =>
    everyV1Call({
      team: 'team_acme',
      board: 'brd_acme',
      list: 'lst_todo',
      otherList: 'lst_doing',
      item: 'tsk_1',
      thread: THREAD,
      assignee: 'ada@example.com',
      hookUrl: 'http://127.0.0.1:9/hook',
      itemHook: kept.items,
      listHook: kept.lists,
    });

  beforeAll(async () => {
    const started = await startRunningTestServer({ seed, allowInsecureWebhooks: true });
    server = started.server;
    db = started.running.app.ctx.db;
    allToken = await tokenOf(server, SECRETS.legacy);
    // Hooks made by a key that may: the refused unsubscribes below must leave them be.
    for (const [object, action, entityId] of [
      ['items', 'createOnBoard', 'brd_acme'],
      ['lists', 'movedToList', 'lst_done'],
    ] as const) {
      const made = await readAnswer(
        await server.v1(`/${object}/subscribe`, {
          method: 'POST',
          token: allToken,
          body: { action, entityId, webhookURL: 'http://127.0.0.1:9/kept', apiService: 'zapier' },
        }),
      );
      expect(made.status).toBe(200);
      kept[object] = made.body.id;
    }
  });
  afterAll(() => server.close());

  /** What a write could change: every task of the board as v1 lists it, and the v1 hooks. */
  async function state() {
    const items = await send(server, allToken, {
      method: 'GET',
      path: '/items?boardId=brd_acme',
      scopes: [],
    });
    const hooks = await db.selectFrom('v1_hook_subscriptions').select('id').orderBy('id').execute();
    return { items: items.body, hooks: hooks.map((hook) => hook.id) };
  }

  it('a read-only key reads everything and is refused every write, naming the scope; nothing changes', async () => {
    const token = await seededToken(server, legacyKey('key_read_only', READ_ONLY));
    const before = await state();
    expect(before.hooks).toEqual([kept.items, kept.lists].sort());
    await expectHeldTo(server, token, READ_ONLY, calls());
    // Every write was refused (expectHeldTo saw its 403): the tasks and hooks are as they were.
    expect(calls().filter((call) => call.method === 'POST').length).toBe(11);
    expect(await state()).toEqual(before);
  });

  it('each read needs its own scope, and createFromEmail also email.metadata.read (as v2 POST /tasks with thread_id)', async () => {
    const token = await seededToken(server, legacyKey('key_tasks_write', ['tasks.write']));
    const before = await state();
    await expectHeldTo(server, token, ['tasks.write'], calls());
    // Its writes happened: one item made (createFromEmail was refused), tsk_1 moved; no hook touched.
    const after = await state();
    expect(after.items.length).toBe(before.items.length + 1);
    expect(after.items.find((item: { id: string }) => item.id === 'tsk_1')).toMatchObject({
      listId: 'lst_doing',
      completed: false,
      assignedToEmail: '',
    });
    expect(after.hooks).toEqual(before.hooks);
  });

  it('a key with webhooks.manage alone manages hooks and nothing else', async () => {
    const token = await seededToken(server, legacyKey('key_hooks', ['webhooks.manage']));
    const before = await state();
    // Its unsubscribes cancel the hooks it made itself (send() hands them their ids).
    await expectHeldTo(server, token, ['webhooks.manage'], calls());
    expect(await state()).toEqual(before);
  });
});

describe('the demo’s all-scopes legacy key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: demoSeed, allowInsecureWebhooks: true });
  });
  afterAll(() => server.close());

  it('reaches every v1 endpoint', async () => {
    const token = await tokenOf(server, {
      email: DEMO_CREDENTIALS.email,
      api_key: DEMO_CREDENTIALS.legacyApiKey,
      api_secret: DEMO_CREDENTIALS.legacyApiSecret,
      api_key_name: DEMO_CREDENTIALS.legacyKeyName,
    });
    const calls = everyV1Call({
      team: 'team_northwind',
      board: 'brd_product',
      list: 'lst_backlog',
      otherList: 'lst_review',
      item: 'tsk_demo_p01',
      thread: THREAD,
      assignee: DEMO_CREDENTIALS.email,
      hookUrl: 'http://127.0.0.1:9/hook',
      itemHook: 'made by the subscribe before it',
      listHook: 'made by the subscribe before it',
    });
    expect(calls.length).toBe(16);
    await expectHeldTo(server, token, SCOPES, calls);
  });
});
