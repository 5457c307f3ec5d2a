import {
  getMeta,
  IdempotencyConflictError,
  InsufficientScopeError,
  NotFoundError,
  RequestValidationError,
  SubscriptionRequiredError,
  ThreadworkClient,
  ValidationError,
} from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFetch, rejectionOf } from './helpers/errors.ts';
import { type LiveServer, startLiveServer } from './helpers/live-server.ts';
import { CREDENTIALS, DEFAULT_SCOPES, IDS, THREADS } from './helpers/seed.ts';

let server: LiveServer | undefined;
let client: ThreadworkClient;

beforeAll(async () => {
  server = await startLiveServer();
  client = new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full });
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

function clientWith(options: { apiKey?: string; fetch?: typeof fetch } = {}): ThreadworkClient {
  if (!server) throw new Error('the server did not start');
  return new ThreadworkClient({
    baseUrl: server.v2BaseUrl,
    apiKey: options.apiKey ?? CREDENTIALS.full,
    fetch: options.fetch,
    maxRetries: 0,
  });
}

/** A fresh list on the roadmap board, so that each test orders its own tasks. */
async function scratchList(name: string): Promise<string> {
  const list = await client.lists.create(IDS.board, { name });
  return list.id;
}

/** The titles of a list's tasks, top to bottom, across every page. */
async function titlesIn(listId: string): Promise<string[]> {
  const titles: string[] = [];
  for await (const task of client.tasks.list({ list_id: listId })) titles.push(task.title);
  return titles;
}

describe('reading the workspace', () => {
  it('me names the user and the key with its scopes', async () => {
    const me = await client.me.get();
    expect(me).toMatchObject({
      user_id: IDS.ada,
      email: 'ada@example.com',
      display_name: 'Ada Lovelace',
      key: { id: IDS.fullKey, type: 'v2' },
    });
    expect([...(me.key?.scopes ?? [])].sort()).toEqual([...DEFAULT_SCOPES].sort());
  });

  it('lists every team with its subscription, paid or not', async () => {
    const page = await client.teams.list();
    const byId = new Map(page.data.map((team) => [team.id, team]));
    expect(byId.get(IDS.paidTeam)).toMatchObject({ name: 'Acme', subscription: { plan: 'pro', paid: true } });
    expect(byId.get(IDS.unpaidTeam)).toMatchObject({
      name: 'Garage',
      subscription: { status: 'unpaid', paid: false },
    });
    expect(await client.teams.get(IDS.unpaidTeam)).toMatchObject({ id: IDS.unpaidTeam, name: 'Garage' });
  });

  it("lists a team's boards and a board's lists in order", async () => {
    const boards = await client.boards.list({ team_id: IDS.paidTeam });
    expect(boards.data.find((board) => board.id === IDS.board)).toMatchObject({
      name: 'Roadmap',
      board_type: 'shared',
      team_id: IDS.paidTeam,
      subscription: { paid: true },
    });
    expect(boards.data.find((board) => board.id === IDS.salesBoard)).toMatchObject({
      name: 'Pipeline',
      board_type: 'sales',
      template: 'sales',
    });

    const lists = await client.lists.list(IDS.board);
    expect(lists.data.slice(0, 3).map((list) => [list.id, list.name, list.board_id])).toEqual([
      [IDS.todo, 'To do', IDS.board],
      [IDS.doing, 'Doing', IDS.board],
      [IDS.done, 'Done', IDS.board],
    ]);
  });
});

describe('creating and placing tasks', () => {
  it('puts new tasks on top by default, at the bottom on request, or right after a task', async () => {
    const listId = await scratchList('Placement');
    const a = await client.tasks.create({ list_id: listId, title: 'A' });
    expect(a).toMatchObject({
      title: 'A',
      list_id: listId,
      list_name: 'Placement',
      board_id: IDS.board,
      board_name: 'Roadmap',
      content_type: 'task',
      completed: false,
      shade: 'none',
      thread_ids: [],
    });
    expect(a.id).toMatch(/^tsk_/);
    const b = await client.tasks.create({ list_id: listId, title: 'B' });
    await client.tasks.create({ list_id: listId, title: 'C' });
    expect(await titlesIn(listId)).toEqual(['C', 'B', 'A']);

    await client.tasks.create({ list_id: listId, title: 'D', position: 'bottom' });
    expect(await titlesIn(listId)).toEqual(['C', 'B', 'A', 'D']);

    // The anchor wins over position.
    await client.tasks.create({ list_id: listId, title: 'E', after_task_id: b.id, position: 'bottom' });
    expect(await titlesIn(listId)).toEqual(['C', 'B', 'E', 'A', 'D']);
  });

  it('walks every page of a listing in order with for await, one request per page', async () => {
    const listId = await scratchList('Pages');
    const titles = ['T1', 'T2', 'T3', 'T4', 'T5'];
    for (const title of titles) await client.tasks.create({ list_id: listId, title, position: 'bottom' });

    const recording = recordingFetch();
    const paging = clientWith({ fetch: recording.fetch });
    const walked: string[] = [];
    for await (const task of paging.tasks.list({ list_id: listId, limit: 2 })) walked.push(task.title);

    expect(walked).toEqual(titles);
    const urls = recording.calls.map((call) => new URL(call.url));
    expect(urls).toHaveLength(3);
    expect(urls.map((url) => url.searchParams.get('limit'))).toEqual(['2', '2', '2']);
    expect(urls[0]?.searchParams.has('cursor')).toBe(false);
    expect(urls[1]?.searchParams.get('cursor')).toBeTruthy();
    expect(urls[2]?.searchParams.get('cursor')).toBeTruthy();
    expect(urls[2]?.searchParams.get('cursor')).not.toBe(urls[1]?.searchParams.get('cursor'));
  });

  it('getMeta gives the request id of any result and the pagination of a page', async () => {
    const listId = await scratchList('Meta');
    for (const title of ['M1', 'M2', 'M3']) {
      await client.tasks.create({ list_id: listId, title, position: 'bottom' });
    }
    const first = await client.tasks.list({ list_id: listId, limit: 2 });
    const firstMeta = getMeta(first);
    expect(firstMeta?.request_id).toEqual(expect.any(String));
    expect(firstMeta?.pagination).toEqual({ limit: 2, has_more: true, next_cursor: expect.any(String) });
    expect(first.data.map((task) => task.title)).toEqual(['M1', 'M2']);

    const second = await first.nextPage();
    expect(second?.data.map((task) => task.title)).toEqual(['M3']);
    expect(getMeta(second!)?.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect(await second?.nextPage()).toBeNull();

    const task = await client.tasks.get(first.data[0]!.id);
    const again = await client.tasks.get(first.data[0]!.id);
    expect(getMeta(task)?.request_id).toEqual(expect.any(String));
    expect(getMeta(task)?.request_id).not.toBe(getMeta(again)?.request_id);
    expect(getMeta(task)?.request_id).not.toBe(firstMeta?.request_id);
  });

  it('creates a task from a mailbox thread: title from the subject, thread linked, first_thread set', async () => {
    const listId = await scratchList('From mail');
    const task = await client.tasks.create({ list_id: listId, thread_id: THREADS.roof.id });
    expect(task.title).toBe(THREADS.roof.subject);
    expect(task.thread_ids).toEqual([THREADS.roof.id]);
    expect(task.first_thread).toMatchObject({
      title: THREADS.roof.subject,
      from: `${THREADS.roof.from.name} <${THREADS.roof.from.email}>`,
    });
    expect(Date.parse(task.first_thread?.received_at ?? '')).toBe(Date.parse(THREADS.roof.date));

    const thread = await client.emailThreads.get(THREADS.roof.id);
    expect(thread.linked_tasks?.map((linked) => linked.id)).toContain(task.id);

    // A title sent with the thread overrides the subject; the thread still gives first_thread.
    const titled = await client.tasks.create({
      list_id: listId,
      thread_id: THREADS.lunch.id,
      title: 'Book it',
    });
    expect(titled.title).toBe('Book it');
    expect(titled.thread_ids).toEqual([THREADS.lunch.id]);
    expect(titled.first_thread).toMatchObject({
      title: THREADS.lunch.subject,
      from: THREADS.lunch.from.email,
    });
  });
});

describe('changing tasks', () => {
  it('updates the shade and custom fields, changing only the fields named', async () => {
    const listId = await scratchList('Update');
    const task = await client.tasks.create({ list_id: listId, title: 'Shade me' });

    const updated = await client.tasks.update(task.id, {
      shade: 'teal',
      custom_fields: [
        { field_id: IDS.priority, value: [IDS.priorityHigh] },
        { field_id: IDS.estimate, value: 3 },
      ],
    });
    expect(updated.id).toBe(task.id);
    expect(updated.shade).toBe('teal');
    expect(updated.custom_fields).toEqual(
      expect.arrayContaining([
        { field_id: IDS.priority, value: [IDS.priorityHigh] },
        { field_id: IDS.estimate, value: 3 },
      ]),
    );

    const estimateOnly = await client.tasks.update(task.id, {
      custom_fields: [{ field_id: IDS.estimate, value: 5 }],
    });
    expect(estimateOnly.shade).toBe('teal');
    expect(estimateOnly.custom_fields).toEqual(
      expect.arrayContaining([
        { field_id: IDS.priority, value: [IDS.priorityHigh] },
        { field_id: IDS.estimate, value: 5 },
      ]),
    );

    const cleared = await client.tasks.update(task.id, {
      shade: 'none',
      custom_fields: [{ field_id: IDS.priority, value: [] }],
    });
    expect(cleared.shade).toBe('none');
    expect(cleared.custom_fields).toEqual([{ field_id: IDS.estimate, value: 5 }]);
    expect(await client.tasks.get(task.id)).toMatchObject({
      shade: 'none',
      custom_fields: [{ field_id: IDS.estimate, value: 5 }],
    });
  });

  it('moves a task to the top of another list', async () => {
    const from = await scratchList('Move from');
    const to = await scratchList('Move to');
    await client.tasks.create({ list_id: to, title: 'Already there' });
    const task = await client.tasks.create({ list_id: from, title: 'Travelling' });

    const moved = await client.tasks.move(task.id, { list_id: to });
    expect(moved).toMatchObject({ id: task.id, list_id: to, list_name: 'Move to', board_id: IDS.board });
    expect(await titlesIn(to)).toEqual(['Travelling', 'Already there']);
    expect(await titlesIn(from)).toEqual([]);
  });

  it('reorders within a list and reports where the task landed', async () => {
    const listId = await scratchList('Reorder');
    const a = await client.tasks.create({ list_id: listId, title: 'A', position: 'bottom' });
    const b = await client.tasks.create({ list_id: listId, title: 'B', position: 'bottom' });
    const c = await client.tasks.create({ list_id: listId, title: 'C', position: 'bottom' });

    expect(await client.tasks.reorder(a.id, { position: 'bottom' })).toEqual({
      id: a.id,
      after_task_id: c.id,
      position_index: 2,
      persisted: true,
    });
    expect(await titlesIn(listId)).toEqual(['B', 'C', 'A']);

    expect(await client.tasks.reorder(a.id, { after_task_id: b.id })).toEqual({
      id: a.id,
      after_task_id: b.id,
      position_index: 1,
      persisted: true,
    });
    expect(await titlesIn(listId)).toEqual(['B', 'A', 'C']);

    // Already on top: nothing is written, and it is persisted: the task stands where it was asked to go.
    expect(await client.tasks.reorder(b.id, { position: 'top' })).toMatchObject({
      id: b.id,
      after_task_id: null,
      position_index: 0,
      persisted: true,
    });
    expect(await titlesIn(listId)).toEqual(['B', 'A', 'C']);
  });

  it('completes a task; the listing keeps it unless completed=false', async () => {
    const listId = await scratchList('Complete');
    const task = await client.tasks.create({ list_id: listId, title: 'Finish me' });
    expect(await client.tasks.complete(task.id)).toMatchObject({ id: task.id, completed: true });
    expect((await client.tasks.get(task.id)).completed).toBe(true);
    expect(await titlesIn(listId)).toEqual(['Finish me']);
    const open = await client.tasks.list({ list_id: listId, completed: false });
    expect(open.data).toEqual([]);
  });

  it('archives a task: it leaves the listing', async () => {
    const listId = await scratchList('Archive');
    const keep = await client.tasks.create({ list_id: listId, title: 'Keep' });
    const task = await client.tasks.create({ list_id: listId, title: 'Archive me' });
    const archived = await client.tasks.archive(task.id);
    expect(archived.id).toBe(task.id);
    const listed = await client.tasks.list({ list_id: listId });
    expect(listed.data.map((listedTask) => listedTask.id)).toEqual([keep.id]);
  });

  it('deletes a task: getting it again is a NotFoundError', async () => {
    const listId = await scratchList('Delete');
    const task = await client.tasks.create({ list_id: listId, title: 'Delete me' });
    expect(await client.tasks.delete(task.id)).toEqual({ id: task.id, deleted: true });
    const error = await rejectionOf(client.tasks.get(task.id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
    expect(await titlesIn(listId)).toEqual([]);
  });
});

describe('idempotency', () => {
  it('the same Idempotency-Key twice creates one task and answers it both times', async () => {
    const listId = await scratchList('Idempotent');
    const key = `e2e-${crypto.randomUUID()}`;
    const first = await client.tasks.create({ list_id: listId, title: 'Once' }, { idempotencyKey: key });
    const second = await client.tasks.create({ list_id: listId, title: 'Once' }, { idempotencyKey: key });
    expect(second.id).toBe(first.id);
    expect(second).toEqual(first);
    const listed = await client.tasks.list({ list_id: listId });
    expect(listed.data.map((task) => task.id)).toEqual([first.id]);
  });

  it('the same key with another body is an IdempotencyConflictError', async () => {
    const listId = await scratchList('Conflict');
    const key = `e2e-${crypto.randomUUID()}`;
    await client.tasks.create({ list_id: listId, title: 'First body' }, { idempotencyKey: key });
    const error = await rejectionOf(
      client.tasks.create({ list_id: listId, title: 'Second body' }, { idempotencyKey: key }),
    );
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency_conflict' });
    expect(await titlesIn(listId)).toEqual(['First body']);
  });
});

describe('errors from the real server', () => {
  it('a key with only boards.read gets InsufficientScopeError naming the scope, and nothing is created', async () => {
    const readOnly = clientWith({ apiKey: CREDENTIALS.boardsRead });
    expect((await readOnly.boards.list({ team_id: IDS.paidTeam })).data.length).toBeGreaterThan(0);

    const listId = await scratchList('Scopes');
    const error = await rejectionOf(readOnly.tasks.create({ list_id: listId, title: 'Not allowed' }));
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
      details: { required_scopes: ['tasks.write'] },
    });
    expect(await titlesIn(listId)).toEqual([]);
  });

  it("an unpaid team's boards and tasks are a SubscriptionRequiredError", async () => {
    const boards = await rejectionOf(client.boards.list({ team_id: IDS.unpaidTeam }));
    expect(boards).toBeInstanceOf(SubscriptionRequiredError);
    expect(boards).toMatchObject({ status: 402, code: 'subscription_required' });
    expect(await rejectionOf(client.tasks.get(IDS.unpaidTask))).toBeInstanceOf(SubscriptionRequiredError);
    expect(await rejectionOf(client.lists.list(IDS.unpaidBoard))).toBeInstanceOf(SubscriptionRequiredError);
  });

  it('ids that do not exist are a NotFoundError', async () => {
    const calls = [
      () => client.tasks.get('tsk_does_not_exist'),
      () => client.boards.get('brd_does_not_exist'),
      () => client.lists.list('brd_does_not_exist'),
      () => client.tasks.create({ list_id: 'lst_does_not_exist', title: 'Nowhere' }),
      () => client.tasks.complete('tsk_does_not_exist'),
    ];
    for (const call of calls) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('the server rejects an after_task_id from another list with a ValidationError naming it', async () => {
    const listId = await scratchList('Anchor here');
    const elsewhere = await scratchList('Anchor elsewhere');
    const anchor = await client.tasks.create({ list_id: elsewhere, title: 'Anchor' });
    const error = await rejectionOf(
      client.tasks.create({ list_id: listId, title: 'Misplaced', after_task_id: anchor.id }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).not.toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_error',
      requestId: expect.any(String),
      details: [{ path: 'after_task_id', message: expect.any(String) }],
    });
    expect(await titlesIn(listId)).toEqual([]);
  });

  it('the server rejects custom field values of the wrong type, and AI fields, with their paths', async () => {
    const listId = await scratchList('Bad values');
    const task = await client.tasks.create({ list_id: listId, title: 'Typed' });
    const error = await rejectionOf(
      client.tasks.update(task.id, {
        custom_fields: [
          { field_id: IDS.priority, value: [IDS.priorityLow] },
          { field_id: IDS.estimate, value: 'three days' },
          { field_id: IDS.replyStatus, value: ['opt_needs_reply'] },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).not.toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error' });
    const paths = ((error as ValidationError).details as { path: string }[]).map((detail) => detail.path);
    expect(paths).toEqual(['custom_fields[1].value', 'custom_fields[2].field_id']);
    // Nothing of the rejected patch was written.
    expect((await client.tasks.get(task.id)).custom_fields).toEqual([]);
  });

  it('the client refuses an invalid request itself, sending nothing', async () => {
    const recording = recordingFetch();
    const checked = clientWith({ fetch: recording.fetch });
    const error = await rejectionOf(checked.tasks.create({ list_id: IDS.todo, title: '   ' }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ status: undefined, code: 'validation_error' });
    expect((error as RequestValidationError).details).toEqual([
      { path: 'title', message: expect.any(String) },
    ]);

    expect(await rejectionOf(checked.tasks.update(IDS.deal, {}))).toBeInstanceOf(RequestValidationError);
    expect(await rejectionOf(checked.tasks.list({ list_id: IDS.todo, limit: 500 }))).toBeInstanceOf(
      RequestValidationError,
    );
    expect(recording.calls).toEqual([]);
  });
});
