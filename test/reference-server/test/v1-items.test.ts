import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import {
  type Answer,
  type ResponseBody,
  readAnswer,
  readBody,
  startTestServer,
  type TestServer,
} from './helpers/server.ts';

const THREAD = '18c2f0a1b2c3d4e5';
const REPLY = '18c2f0a1b2c3d4f9';
const OTHER_THREAD = 'aa11bb22cc33dd44';

/**
 * The fixture seed plus: Dan (no display name) in Acme, ordered tasks on the Acme board, tasks on the
 * unpaid and the foreign board, and a connected mailbox for Ada with two threads.
 */
const seed = {
  ...fixtureSeed,
  users: [...fixtureSeed.users, { id: 'usr_dan', email: 'dan@example.com', display_name: null }],
  teams: fixtureSeed.teams.map((team) =>
    team.id === 'team_acme' ? { ...team, members: [...team.members, 'usr_dan'] } : team,
  ),
  tasks: [
    ...fixtureSeed.tasks,
    {
      id: 'tsk_2',
      list_id: 'lst_todo',
      title: 'Send quote',
      notes: 'Use the new template',
      due_at: '2026-03-01T17:00:00+01:00',
      created_at: '2026-01-05T10:00:00Z',
      assignee_id: 'usr_ada',
    },
    { id: 'tsk_3', list_id: 'lst_doing', title: 'Write spec', completed: true },
    { id: 'tsk_4', list_id: 'lst_done', title: 'Ship it' },
    { id: 'tsk_garage', list_id: 'lst_garage', title: 'Fix the door' },
    { id: 'tsk_secret', list_id: 'lst_secret', title: 'Hidden plan' },
  ],
  mailboxes: [
    {
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      state: 'connected',
      threads: [
        {
          id: THREAD,
          messages: [
            {
              id: THREAD,
              from: { email: 'bob@stone.test', name: 'Bob Stone' },
              to: [{ email: 'ada@example.com', name: null }],
              subject: 'Quote for the new roof',
              date: '2026-01-05T10:00:00+01:00',
              body_text: 'Could you send a quote?',
              labels: ['INBOX', 'UNREAD'],
            },
            {
              id: REPLY,
              from: { email: 'ada@example.com', name: 'Ada Lovelace' },
              to: [{ email: 'bob@stone.test', name: null }],
              subject: 'Re: Quote for the new roof',
              date: '2026-01-05T11:00:00Z',
              body_text: 'Tomorrow.',
              labels: ['SENT'],
            },
          ],
        },
        {
          id: OTHER_THREAD,
          messages: [
            {
              id: OTHER_THREAD,
              from: { email: 'news@shop.test', name: null },
              subject: 'Weekly offers',
              date: '2026-01-06T08:00:00Z',
              labels: ['INBOX'],
            },
          ],
        },
      ],
    },
  ],
} satisfies SeedInput;

const ITEM_KEYS = [
  'assignedTo',
  'assignedToEmail',
  'boardId',
  'boardName',
  'completed',
  'dateCreated',
  'dueDate',
  'firstThread',
  'id',
  'listId',
  'listName',
  'notes',
  'title',
];

/** The Acme board's lists, left to right. */
const ORDER = ['lst_todo', 'lst_doing', 'lst_done'];

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seed, allowInsecureWebhooks: true });
  const response = await fetch(`${server.origin}/auth/api_token?${new URLSearchParams(SECRETS.legacy)}`, {
    method: 'POST',
  });
  token = (await readBody(response))['x-access-token'];
});
afterAll(() => server.close());

const get = async (path: string) => readAnswer(await server.v1(path, { token }));
const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
  readAnswer(await server.v1(path, { method: 'POST', token, body, headers }));
/** v2 with the same session token (legacy token auth), so both faces are read as the same user. */
const v2 = async (path: string, init: { method?: string; body?: unknown } = {}) =>
  readAnswer(await server.v2(path, { ...init, token }));

const items = async (query: string) => {
  const { status, body } = await get(`/items?${query}`);
  expect(status).toBe(200);
  return body as ResponseBody[];
};
const itemOf = async (listId: string, id: string) =>
  (await items(`listId=${listId}`)).find((item) => item.id === id);

async function createItem(title: string, listId = 'lst_todo'): Promise<string> {
  const created = await post('/items', { listId, title });
  expect(created.status).toBe(200);
  return created.body.id;
}

function expectError(result: Answer, status: number, code: string, path?: string): void {
  expect(result.status).toBe(status);
  expect(result.body.error.code).toBe(code);
  expect(result.body.error.request_id).toBe(result.headers.get('x-request-id'));
  if (path !== undefined) expect(result.body.error.details).toContainEqual(expect.objectContaining({ path }));
}

describe('GET /items', () => {
  it('answers Items with exactly the legacy fields', async () => {
    const response = await server.v1('/items?listId=lst_todo', { token });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const listed = (await readBody(response)) as ResponseBody[];
    const item = listed.find((candidate) => candidate.id === 'tsk_2');
    expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(item).toEqual({
      id: 'tsk_2',
      title: 'Send quote',
      boardName: 'Roadmap',
      boardId: 'brd_acme',
      listName: 'To do',
      listId: 'lst_todo',
      dateCreated: '2026-01-05T10:00:00.000Z',
      dueDate: '2026-03-01T16:00:00.000Z',
      notes: 'Use the new template',
      firstThread: null,
      completed: false,
      assignedTo: 'Ada Lovelace',
      assignedToEmail: 'ada@example.com',
    });
    const plain = listed.find((candidate) => candidate.id === 'tsk_1');
    expect(plain).toMatchObject({
      dueDate: null,
      notes: null,
      firstThread: null,
      assignedTo: '',
      assignedToEmail: '',
    });
    expect(plain.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('lists a board list by list, top to bottom, completed included and archived left out', async () => {
    const board = await items('boardId=brd_acme');
    const seeded = board.filter((item) => ['tsk_1', 'tsk_2', 'tsk_3', 'tsk_4'].includes(item.id));
    expect(seeded.map((item) => [item.id, item.listId])).toEqual([
      ['tsk_1', 'lst_todo'],
      ['tsk_2', 'lst_todo'],
      ['tsk_3', 'lst_doing'],
      ['tsk_4', 'lst_done'],
    ]);
    expect(seeded[2].completed).toBe(true);
    const lists = board.map((item) => item.listId);
    expect(lists).toEqual([...lists].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)));

    const id = await createItem('To be archived', 'lst_done');
    expect((await items('listId=lst_done')).map((item) => item.id)).toContain(id);
    expect((await v2(`/tasks/${id}/archive`, { method: 'POST' })).status).toBe(200);
    expect((await items('listId=lst_done')).map((item) => item.id)).not.toContain(id);
    expect((await items('boardId=brd_acme')).map((item) => item.id)).not.toContain(id);
  });

  it('needs exactly one of boardId or listId', async () => {
    for (const query of ['', '?boardId=brd_acme&listId=lst_todo', '?listId=', '?board_id=brd_acme']) {
      expectError(await get(`/items${query}`), 400, 'validation_error');
    }
  });

  it('answers 404 for unknown and foreign boards and lists, 402 for unpaid ones', async () => {
    for (const query of [
      'listId=lst_missing',
      'listId=lst_secret',
      'boardId=brd_missing',
      'boardId=brd_umbrella',
    ]) {
      expectError(await get(`/items?${query}`), 404, 'not_found');
    }
    for (const query of ['listId=lst_garage', 'boardId=brd_garage']) {
      expectError(await get(`/items?${query}`), 402, 'subscription_required');
    }
  });
});

describe('POST /items', () => {
  it('creates a task that v2 reads under the same id, at the top of its list', async () => {
    const created = await post('/items', {
      listId: 'lst_doing',
      title: 'Book the venue',
      notes: 'Ask for two rooms',
      dueDate: '2026-04-01T09:30:00+02:00',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^tsk_/) });
    const { id } = created.body;

    const task = await v2(`/tasks/${id}`);
    expect(task.status).toBe(200);
    expect(task.body.data).toMatchObject({
      id,
      title: 'Book the venue',
      notes: 'Ask for two rooms',
      list_id: 'lst_doing',
      board_id: 'brd_acme',
      completed: false,
      thread_ids: [],
    });
    const listed = await items('listId=lst_doing');
    expect(listed[0]).toMatchObject({
      id,
      title: 'Book the venue',
      listName: 'Doing',
      dueDate: '2026-04-01T07:30:00.000Z',
      firstThread: null,
    });
  });

  it('validates the body', async () => {
    expectError(await post('/items', { listId: 'lst_todo' }), 400, 'validation_error', 'title');
    expectError(await post('/items', { listId: 'lst_todo', title: '   ' }), 400, 'validation_error', 'title');
    expectError(await post('/items', { title: 'x' }), 400, 'validation_error', 'listId');
    expectError(
      await post('/items', { listId: 'lst_todo', title: 'x', dueDate: 'next week' }),
      400,
      'validation_error',
      'dueDate',
    );
  });

  it('answers 404 for unknown and foreign lists and 402 for an unpaid one, creating nothing', async () => {
    expectError(await post('/items', { listId: 'lst_missing', title: 'x' }), 404, 'not_found');
    expectError(await post('/items', { listId: 'lst_secret', title: 'x' }), 404, 'not_found');
    expectError(await post('/items', { listId: 'lst_garage', title: 'x' }), 402, 'subscription_required');
    expect((await v2('/tasks?list_id=lst_garage')).status).toBe(402);
  });

  it('honours Idempotency-Key: a repeat creates nothing and answers the same id', async () => {
    const body = { listId: 'lst_done', title: 'Only once' };
    const first = await post('/items', body, { 'idempotency-key': 'v1-create-1' });
    const again = await post('/items', body, { 'idempotency-key': 'v1-create-1' });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const titles = (await items('listId=lst_done')).map((item) => item.title);
    expect(titles.filter((title) => title === 'Only once')).toHaveLength(1);
    const other = await post('/items', { ...body, title: 'Other' }, { 'idempotency-key': 'v1-create-1' });
    expectError(other, 409, 'idempotency_conflict');
  });
});

describe('POST /items/createFromEmail', () => {
  const fromEmail = (overrides: Record<string, unknown> = {}) =>
    post('/items/createFromEmail', {
      providerId: 'gmail',
      listId: 'lst_todo',
      messageId: THREAD,
      threadId: THREAD,
      ...overrides,
    });

  async function inboxOf(threadId: string): Promise<boolean[]> {
    const thread = await v2(`/email-threads/${threadId}?include=messages`);
    expect(thread.status).toBe(200);
    return thread.body.data.messages.map((message: { labels: string[] }) => message.labels.includes('INBOX'));
  }

  it('takes the title from the thread, links it, and leaves the inbox alone without archive', async () => {
    const created = await fromEmail({
      messageId: REPLY,
      listItem: { title: 'Ignored title', contentType: 'task' },
      dueDate: '2026-02-10T12:00:00Z',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^tsk_/) });
    const item = await itemOf('lst_todo', created.body.id);
    expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(item).toMatchObject({
      title: 'Quote for the new roof',
      dueDate: '2026-02-10T12:00:00.000Z',
      firstThread: {
        title: 'Quote for the new roof',
        received: '2026-01-05T09:00:00.000Z',
        from: 'Bob Stone <bob@stone.test>',
      },
    });
    const task = (await v2(`/tasks/${created.body.id}`)).body.data;
    expect(task.thread_ids).toEqual([THREAD]);
    expect(task.content_type).toBe('task');
    expect(await inboxOf(THREAD)).toEqual([true, false]);
    const thread = await v2(`/email-threads/${THREAD}`);
    expect(thread.body.data.linked_tasks).toContainEqual({
      id: created.body.id,
      title: 'Quote for the new roof',
    });
  });

  it('archives the thread (removes INBOX) when archive is true', async () => {
    expect(await inboxOf(OTHER_THREAD)).toEqual([true]);
    const created = await fromEmail({ threadId: OTHER_THREAD, messageId: OTHER_THREAD, archive: true });
    expect(created.status).toBe(200);
    expect(await inboxOf(OTHER_THREAD)).toEqual([false]);
    expect((await itemOf('lst_todo', created.body.id)).title).toBe('Weekly offers');
  });

  it('accepts only the one supported provider, naming providerId', async () => {
    for (const providerId of ['outlook', '', undefined]) {
      expectError(await fromEmail({ providerId }), 400, 'validation_error', 'providerId');
    }
  });

  it('validates the other fields, naming each', async () => {
    expectError(await fromEmail({ listId: undefined }), 400, 'validation_error', 'listId');
    expectError(await fromEmail({ threadId: 'not hex!' }), 400, 'validation_error', 'threadId');
    expectError(await fromEmail({ messageId: undefined }), 400, 'validation_error', 'messageId');
    expectError(await fromEmail({ archive: 'yes' }), 400, 'validation_error', 'archive');
    // Sale cards exist only on sales boards; the error names the v1 field.
    expectError(
      await fromEmail({ listItem: { contentType: 'sale' } }),
      400,
      'validation_error',
      'listItem.contentType',
    );
  });

  it('answers 404 for an unknown thread, a message of another thread, and hidden lists; 402 when unpaid', async () => {
    expectError(
      await fromEmail({ threadId: 'ffff0000ffff0000', messageId: 'ffff0000ffff0000' }),
      404,
      'not_found',
    );
    expectError(await fromEmail({ messageId: OTHER_THREAD }), 404, 'not_found');
    expectError(await fromEmail({ listId: 'lst_secret' }), 404, 'not_found');
    expectError(await fromEmail({ listId: 'lst_garage' }), 402, 'subscription_required');
  });
});

describe('markComplete and markIncomplete', () => {
  it('completes and un-completes an item, as both APIs show', async () => {
    const id = await createItem('Finish the report');
    const done = await post('/items/markComplete', { itemId: id });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true });
    expect((await v2(`/tasks/${id}`)).body.data.completed).toBe(true);
    expect((await itemOf('lst_todo', id)).completed).toBe(true);
    // Completing twice is still a success.
    expect((await post('/items/markComplete', { itemId: id })).body).toEqual({ success: true });

    const undone = await post('/items/markIncomplete', { itemId: id });
    expect(undone.status).toBe(200);
    expect(undone.body).toEqual({ success: true });
    expect((await v2(`/tasks/${id}`)).body.data.completed).toBe(false);
    expect((await itemOf('lst_todo', id)).completed).toBe(false);
  });

  it('answers 400 without itemId, 404 for unknown and foreign items, 402 for unpaid ones', async () => {
    for (const path of ['/items/markComplete', '/items/markIncomplete']) {
      expectError(await post(path, {}), 400, 'validation_error', 'itemId');
      expectError(await post(path, { itemId: 'tsk_missing' }), 404, 'not_found');
      expectError(await post(path, { itemId: 'tsk_secret' }), 404, 'not_found');
      expectError(await post(path, { itemId: 'tsk_garage' }), 402, 'subscription_required');
    }
  });
});

describe('assignTask and unassignTask', () => {
  it('assigns a board member and unassigns them, as both APIs show', async () => {
    const id = await createItem('Call the bank');
    const assigned = await post('/items/assignTask', { itemId: id, assigneeEmail: 'ada@example.com' });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ success: true });
    expect(await itemOf('lst_todo', id)).toMatchObject({
      assignedTo: 'Ada Lovelace',
      assignedToEmail: 'ada@example.com',
    });
    expect((await v2(`/tasks/${id}`)).body.data.assignee).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });

    // Reassigning replaces the assignee. A member without a display name has no name: assignedTo is ""
    // (v1 §2: the name, empty if none), never the email, which only assignedToEmail carries.
    expect((await post('/items/assignTask', { itemId: id, assigneeEmail: 'DAN@example.com' })).status).toBe(
      200,
    );
    expect(await itemOf('lst_todo', id)).toMatchObject({
      assignedTo: '',
      assignedToEmail: 'dan@example.com',
    });
    const onBoard = await get('/items?boardId=brd_acme');
    const item = onBoard.body.find((entry: { id: string }) => entry.id === id);
    expect(item).toMatchObject({ assignedTo: '', assignedToEmail: 'dan@example.com' });

    const unassigned = await post('/items/unassignTask', { itemId: id, assigneeEmail: 'dan@example.com' });
    expect(unassigned.status).toBe(200);
    expect(unassigned.body).toEqual({ success: true });
    expect(await itemOf('lst_todo', id)).toMatchObject({ assignedTo: '', assignedToEmail: '' });
    expect((await v2(`/tasks/${id}`)).body.data.assignee).toBeNull();
  });

  it('answers 400 naming assigneeEmail for a non-member, whether or not the account exists', async () => {
    const id = await createItem('Water the plants');
    // Bob exists but is not in Acme; carol is in another team only; nobody has the last address.
    for (const assigneeEmail of ['bob@example.com', 'carol@example.com', 'nobody@example.com']) {
      expectError(
        await post('/items/assignTask', { itemId: id, assigneeEmail }),
        400,
        'validation_error',
        'assigneeEmail',
      );
    }
    expect((await itemOf('lst_todo', id)).assignedToEmail).toBe('');
  });

  it('refuses to unassign anyone but the assigned member, with 400 naming assigneeEmail', async () => {
    const id = await createItem('Renew the lease');
    expectError(
      await post('/items/unassignTask', { itemId: id, assigneeEmail: 'ada@example.com' }),
      400,
      'validation_error',
      'assigneeEmail',
    );
    await post('/items/assignTask', { itemId: id, assigneeEmail: 'ada@example.com' });
    expectError(
      await post('/items/unassignTask', { itemId: id, assigneeEmail: 'dan@example.com' }),
      400,
      'validation_error',
      'assigneeEmail',
    );
    expect((await itemOf('lst_todo', id)).assignedToEmail).toBe('ada@example.com');
  });

  it('requires both fields and a visible, paid item', async () => {
    for (const path of ['/items/assignTask', '/items/unassignTask']) {
      expectError(await post(path, { itemId: 'tsk_1' }), 400, 'validation_error', 'assigneeEmail');
      expectError(await post(path, { assigneeEmail: 'ada@example.com' }), 400, 'validation_error', 'itemId');
      expectError(
        await post(path, { itemId: 'tsk_secret', assigneeEmail: 'carol@example.com' }),
        404,
        'not_found',
      );
      expectError(
        await post(path, { itemId: 'tsk_missing', assigneeEmail: 'ada@example.com' }),
        404,
        'not_found',
      );
      expectError(
        await post(path, { itemId: 'tsk_garage', assigneeEmail: 'ada@example.com' }),
        402,
        'subscription_required',
      );
    }
  });
});

describe('moveTaskToList', () => {
  it('moves an item to another list, as both APIs show', async () => {
    const id = await createItem('Move me', 'lst_todo');
    const moved = await post('/items/moveTaskToList', { itemId: id, listId: 'lst_done' });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ success: true });
    expect((await items('listId=lst_todo')).map((item) => item.id)).not.toContain(id);
    expect(await itemOf('lst_done', id)).toMatchObject({
      listId: 'lst_done',
      listName: 'Done',
      boardId: 'brd_acme',
    });
    expect((await v2(`/tasks/${id}`)).body.data).toMatchObject({ list_id: 'lst_done', list_name: 'Done' });
    const v2Listing = await v2('/tasks?list_id=lst_done&limit=200');
    expect(v2Listing.body.data.map((task: { id: string }) => task.id)).toContain(id);
  });

  it('needs access to the item and to the destination', async () => {
    const id = await createItem('Stay here');
    expectError(await post('/items/moveTaskToList', { itemId: id }), 400, 'validation_error', 'listId');
    expectError(
      await post('/items/moveTaskToList', { listId: 'lst_done' }),
      400,
      'validation_error',
      'itemId',
    );
    expectError(await post('/items/moveTaskToList', { itemId: id, listId: 'lst_secret' }), 404, 'not_found');
    expectError(await post('/items/moveTaskToList', { itemId: id, listId: 'lst_missing' }), 404, 'not_found');
    expectError(
      await post('/items/moveTaskToList', { itemId: id, listId: 'lst_garage' }),
      402,
      'subscription_required',
    );
    expectError(
      await post('/items/moveTaskToList', { itemId: 'tsk_secret', listId: 'lst_done' }),
      404,
      'not_found',
    );
    expect((await itemOf('lst_todo', id))?.listId).toBe('lst_todo');
  });
});

describe('hooks', () => {
  let receiver: Server;
  const received: { path: string; body: ResponseBody }[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        text += chunk;
      });
      request.on('end', () => {
        received.push({ path: request.url ?? '', body: JSON.parse(text) });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  async function waitFor(path: string): Promise<ResponseBody> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const hit = received.find((entry) => entry.path === path);
      if (hit) return hit.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no delivery to ${path} within 2 s`);
  }

  it('fire createOnList and createOnBoard for items created on v1, with the Item as body', async () => {
    const port = (receiver.address() as AddressInfo).port;
    for (const [action, entityId] of [
      ['createOnList', 'lst_doing'],
      ['createOnBoard', 'brd_acme'],
    ]) {
      const subscribed = await post('/items/subscribe', {
        action,
        entityId,
        webhookURL: `http://127.0.0.1:${port}/${action}`,
        apiService: 'zapier',
      });
      expect(subscribed.status).toBe(200);
    }
    const created = await post('/items/createFromEmail', {
      providerId: 'gmail',
      listId: 'lst_doing',
      messageId: THREAD,
      threadId: THREAD,
    });
    const item = await itemOf('lst_doing', created.body.id);
    expect(await waitFor('/createOnList')).toEqual(item);
    expect(await waitFor('/createOnBoard')).toEqual(item);
  });
});
