import {
  AuthenticationError,
  type LegacyClient,
  NotFoundError,
  ThreadworkClient,
  tokenExpiresAt,
  ValidationError,
} from '@threadwork/shared';
import type { V1Item } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from './helpers/errors.ts';
import { type LiveServer, startLiveServer } from './helpers/live-server.ts';
import { CREDENTIALS, IDS, seededLegacyClient, THREADS } from './helpers/seed.ts';

let server: LiveServer | undefined;
let legacy: LegacyClient;

function legacyClient(overrides: { apiSecret?: string } = {}): LegacyClient {
  if (!server) throw new Error('the server did not start');
  return seededLegacyClient(server.origin, overrides);
}

beforeAll(async () => {
  server = await startLiveServer();
  legacy = legacyClient();
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

/** The item with this id among the items of a list (or board). */
async function itemIn(
  scope: { listId: string } | { boardId: string },
  id: string,
): Promise<V1Item | undefined> {
  const items = await legacy.items(scope);
  return items.find((item) => item.id === id);
}

describe('the session token', () => {
  it('exchanges the key for a JWT valid for about 20 minutes, and reuses it', async () => {
    const before = Date.now();
    const token = await legacy.getToken();
    expect(token.split('.')).toHaveLength(3);
    const expiresAt = tokenExpiresAt(token);
    expect(expiresAt).toBeGreaterThan(before + 19 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 20 * 60_000 + 1000);
    expect(await legacy.getToken()).toBe(token);
  });

  it('a wrong api_secret is an AuthenticationError whose details name the field', async () => {
    const wrong = legacyClient({ apiSecret: 'notthesecret01' });
    const error = await rejectionOf(wrong.getToken());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', details: { field: 'api_secret' } });
    // A call that needs the token fails the same way, without reaching the v1 route.
    expect(await rejectionOf(wrong.teams())).toBeInstanceOf(AuthenticationError);
  });
});

describe('reading', () => {
  it('lists teams, boards and lists', async () => {
    const teams = await legacy.teams();
    expect(teams).toEqual(
      expect.arrayContaining([
        { id: IDS.paidTeam, name: 'Acme' },
        { id: IDS.unpaidTeam, name: 'Garage' },
      ]),
    );
    const boards = await legacy.boards(IDS.paidTeam);
    expect(boards.map((board) => board.id).sort()).toEqual([IDS.board, IDS.salesBoard].sort());
    expect(await legacy.lists(IDS.board)).toEqual([
      { id: IDS.todo, name: 'To do' },
      { id: IDS.doing, name: 'Doing' },
      { id: IDS.done, name: 'Done' },
    ]);
  });

  it('lists the items of a list and of a board', async () => {
    const items = await legacy.items({ listId: IDS.leads });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: IDS.deal,
      title: 'Roof deal',
      boardId: IDS.salesBoard,
      boardName: 'Pipeline',
      listId: IDS.leads,
      listName: 'Leads',
      completed: false,
      assignedTo: '',
      assignedToEmail: '',
    });
    expect(Date.parse(items[0]!.dateCreated)).toBe(Date.parse('2026-01-05T10:00:00Z'));
    expect((await legacy.items({ boardId: IDS.salesBoard })).map((item) => item.id)).toContain(IDS.deal);
  });
});

describe('writing', () => {
  it('creates an item that reads back with its fields', async () => {
    const { id } = await legacy.createItem({
      listId: IDS.todo,
      title: 'Call the roofer',
      notes: 'Ask about Tuesday',
      dueDate: '2026-03-01T09:00:00.000Z',
    });
    expect(id).toMatch(/^tsk_/);
    const item = await itemIn({ listId: IDS.todo }, id);
    expect(item).toMatchObject({
      title: 'Call the roofer',
      notes: 'Ask about Tuesday',
      listId: IDS.todo,
      listName: 'To do',
      boardId: IDS.board,
      boardName: 'Roadmap',
      firstThread: null,
      completed: false,
    });
    expect(Date.parse(item!.dueDate ?? '')).toBe(Date.parse('2026-03-01T09:00:00.000Z'));
    expect(await itemIn({ boardId: IDS.board }, id)).toBeDefined();
  });

  it('creates an item from an email: the subject is the title, whatever listItem.title says', async () => {
    const { id } = await legacy.createFromEmail({
      providerId: 'gmail',
      listId: IDS.doing,
      threadId: THREADS.lunch.id,
      messageId: THREADS.lunch.firstMessageId,
      listItem: { contentType: 'task', title: 'Ignored' },
    });
    const item = await itemIn({ listId: IDS.doing }, id);
    expect(item).toMatchObject({
      title: THREADS.lunch.subject,
      firstThread: { title: THREADS.lunch.subject, from: THREADS.lunch.from.email },
    });
    expect(Date.parse(item!.firstThread?.received ?? '')).toBe(Date.parse(THREADS.lunch.date));
  });

  it('marks an item complete and incomplete', async () => {
    const { id } = await legacy.createItem({ listId: IDS.todo, title: 'Toggle me' });
    expect(await legacy.markComplete(id)).toEqual({ success: true });
    expect((await itemIn({ listId: IDS.todo }, id))?.completed).toBe(true);
    expect(await legacy.markIncomplete(id)).toEqual({ success: true });
    expect((await itemIn({ listId: IDS.todo }, id))?.completed).toBe(false);
  });

  it('assigns an item to a board member and unassigns it', async () => {
    const { id } = await legacy.createItem({ listId: IDS.todo, title: 'Assign me' });
    expect(await legacy.assignTask(id, 'bob@example.com')).toEqual({ success: true });
    expect(await itemIn({ listId: IDS.todo }, id)).toMatchObject({
      assignedTo: 'Bob Stone',
      assignedToEmail: 'bob@example.com',
    });
    expect(await legacy.unassignTask(id, 'bob@example.com')).toEqual({ success: true });
    expect(await itemIn({ listId: IDS.todo }, id)).toMatchObject({ assignedTo: '', assignedToEmail: '' });

    // Someone outside the board cannot be assigned.
    const error = await rejectionOf(legacy.assignTask(id, 'stranger@example.com'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, details: [{ path: 'assigneeEmail' }] });
  });

  it('moves an item to another list', async () => {
    const { id } = await legacy.createItem({ listId: IDS.todo, title: 'Move me' });
    expect(await legacy.moveTaskToList(id, IDS.done)).toEqual({ success: true });
    expect(await itemIn({ listId: IDS.todo }, id)).toBeUndefined();
    expect(await itemIn({ listId: IDS.done }, id)).toMatchObject({ listId: IDS.done, listName: 'Done' });
  });

  it('subscribes to a hook and unsubscribes; a second unsubscribe is a NotFoundError', async () => {
    const subscription = await legacy.subscribe('items', {
      email: CREDENTIALS.legacy.email,
      action: 'createOnList',
      entityId: IDS.todo,
      webhookURL: 'http://127.0.0.1:9/hooks/create-on-list',
      apiService: 'zapier',
    });
    expect(subscription).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      action: 'createOnList',
      entityId: IDS.todo,
      webhookURL: 'http://127.0.0.1:9/hooks/create-on-list',
      apiService: 'zapier',
    });
    await expect(legacy.unsubscribe('items', subscription.id)).resolves.toBeUndefined();
    expect(await rejectionOf(legacy.unsubscribe('items', subscription.id))).toBeInstanceOf(NotFoundError);
  });

  it('unknown item ids are a NotFoundError', async () => {
    const error = await rejectionOf(legacy.markComplete('tsk_does_not_exist'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('a v2 client on the legacy session token', () => {
  it('works on /v2 with the token from the LegacyClient; me carries no key', async () => {
    if (!server) throw new Error('the server did not start');
    const v2 = new ThreadworkClient({
      baseUrl: server.v2BaseUrl,
      accessToken: (context) => legacy.getToken(context),
    });
    const me = await v2.me.get();
    expect(me).toMatchObject({ user_id: IDS.ada, email: 'ada@example.com' });
    expect(me).not.toHaveProperty('key');

    const task = await v2.tasks.create({ list_id: IDS.done, title: 'Made with the session token' });
    expect(task).toMatchObject({ list_id: IDS.done, title: 'Made with the session token' });
    // The same task, seen through v1: the ids are shared.
    expect(await itemIn({ listId: IDS.done }, task.id)).toMatchObject({
      title: 'Made with the session token',
    });
  });
});
