// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { redact } from '../lib/background/errors.ts';
import { createService } from '../lib/background/service.ts';
import { SERVICE_URL_HELP, serviceOrigin } from '../lib/service-url.ts';
import { choiceItem, credentialsItem, sessionTokenItem } from '../lib/settings.ts';
import { TASK } from './helpers/fixtures.ts';

const SETTINGS = {
  origin: 'http://127.0.0.1:9999/',
  email: 'ada@example.com',
  apiKey: 'key',
  apiSecret: 'secret',
  keyName: 'Browser',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A token whose `exp` is an hour away, as the token endpoint answers. */
const TOKEN = `x.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.y`;

function service(fetch: typeof globalThis.fetch, granted = true) {
  return createService({
    fetch,
    hasHostPermission: async () => granted,
    openTab: async () => {},
    openOptions: async () => {},
  });
}

beforeEach(() => {
  fakeBrowser.reset();
});

describe('the message protocol', () => {
  it('refuses a malformed message before any request is sent', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const handle = service(fetch).handle;
    expect(await handle({ type: 'nope' })).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    const bad = await handle({
      type: 'task.create',
      task: { list_id: 'lst_1', thread_id: 'not hex' },
      choice: { team_id: 't', board_id: 'b', list_id: 'lst_1' },
      idempotency_key: 'k1234567',
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(!bad.ok && bad.error.message).toContain('task.thread_id');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says "not configured" before settings exist, and "permission" when the host is not granted', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    expect(await service(fetch).handle({ type: 'me.get' })).toMatchObject({
      ok: false,
      error: { kind: 'not_configured' },
    });
    await service(fetch).handle({ type: 'settings.save', settings: SETTINGS });
    expect(await service(fetch, false).handle({ type: 'me.get' })).toMatchObject({
      ok: false,
      error: { kind: 'permission' },
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the create with the Idempotency-Key it is given over the session token, and remembers the choice', async () => {
    const calls: { url: string; headers: Headers; body: unknown }[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const url = String(input);
      calls.push({
        url,
        headers: new Headers(init?.headers),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.includes('/auth/api_token')) return json(200, { 'x-access-token': TOKEN });
      return json(200, {
        data: TASK,
        meta: { request_id: 'req_1' },
      });
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const answer = await handle({
      type: 'task.create',
      task: { list_id: 'lst_1', thread_id: '18c2f0a1b2c3d4e5', title: 'Quote', position: 'bottom' },
      choice: { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' },
      idempotency_key: 'key-0001',
    });
    expect(answer).toMatchObject({ ok: true, data: { id: 'tsk_1', board_name: 'Roadmap' } });
    const create = calls.find((call) => call.url === 'http://127.0.0.1:9999/v2/tasks')!;
    expect(create.headers.get('idempotency-key')).toBe('key-0001');
    expect(create.headers.get('x-access-token')).toBe(TOKEN);
    expect(create.body).toEqual({
      list_id: 'lst_1',
      thread_id: '18c2f0a1b2c3d4e5',
      title: 'Quote',
      position: 'bottom',
    });
    expect(await choiceItem.getValue()).toEqual({ team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' });
    expect((await sessionTokenItem.getValue())?.token).toBe(TOKEN);
  });

  it.each([
    [401, 'unauthenticated', 'bad_credentials'],
    [402, 'subscription_required', 'subscription'],
    [409, 'mailbox_reauth_required', 'mailbox'],
    [409, 'mailbox_not_connected', 'mailbox'],
  ])('turns HTTP %i %s into the "%s" state', async (status, code, kind) => {
    const fetch = vi.fn<typeof globalThis.fetch>(async (input) =>
      String(input).includes('/auth/api_token')
        ? json(200, { 'x-access-token': TOKEN })
        : json(status, { error: { code, message: `the service says ${code}`, request_id: 'req_1' } }),
    );
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    expect(await handle({ type: 'teams.list' })).toMatchObject({
      ok: false,
      error: { kind, code, message: expect.stringContaining(code) },
    });
  });

  it('reports an unreachable service', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('fetch failed');
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    expect(await handle({ type: 'me.get' })).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });
});

describe('settings storage', () => {
  it('keeps credentials in storage.local, never shows the secret, and keeps it when saved empty', async () => {
    const { handle } = service(vi.fn());
    const saved = await handle({ type: 'settings.save', settings: SETTINGS });
    expect(saved).toEqual({
      ok: true,
      data: {
        origin: 'http://127.0.0.1:9999',
        email: 'ada@example.com',
        apiKey: 'key',
        keyName: 'Browser',
        hasSecret: true,
        configured: true,
        signedOut: false,
      },
    });
    expect(JSON.stringify(saved)).not.toContain('secret"');
    expect((await fakeBrowser.storage.local.get('credentials'))['credentials']).toMatchObject({
      apiSecret: 'secret',
    });
    await sessionTokenItem.setValue({ token: 't', renewAt: Date.now() + 60_000, fingerprint: 'f' });
    await handle({ type: 'settings.save', settings: { ...SETTINGS, apiKey: 'other', apiSecret: '' } });
    expect(await credentialsItem.getValue()).toMatchObject({ apiKey: 'other', apiSecret: 'secret' });
    // A change of credentials drops the session token.
    expect(await sessionTokenItem.getValue()).toBeNull();
  });

  it('refuses a service URL that is not http(s), and says what each field wants in plain words', async () => {
    const answer = await service(vi.fn()).handle({
      type: 'settings.save',
      settings: { ...SETTINGS, origin: 'javascript:alert(1)' },
    });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid', message: SERVICE_URL_HELP } });
    expect(await credentialsItem.getValue()).toBeNull();
    // An empty form: each field's own words, never a schema path such as "settings.apiKey: is required".
    const empty = await service(vi.fn()).handle({
      type: 'settings.save',
      settings: { origin: '', email: '', apiKey: '', apiSecret: '', keyName: '' },
    });
    expect(!empty.ok && empty.error.message).toBe(
      `${SERVICE_URL_HELP} Enter the email you sign in to the service with. Enter the API key of a key + secret. Enter the name the key has in the service.`,
    );
  });

  it('reads a service URL as a user types it: with or without its scheme, to its origin', () => {
    expect(serviceOrigin('app.example.com')).toBe('https://app.example.com');
    expect(serviceOrigin(' https://app.example.com/boards/1?x=1 ')).toBe('https://app.example.com');
    expect(serviceOrigin('localhost:8787')).toBe('http://localhost:8787');
    expect(serviceOrigin('127.0.0.1:8787/mail')).toBe('http://127.0.0.1:8787');
    expect(serviceOrigin('http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    for (const wrong of ['', 'app', 'javascript:alert(1)', 'ftp://files.example.com', 'https://']) {
      expect(serviceOrigin(wrong), wrong).toBeNull();
    }
    // The help keeps its example whole: it is shown as it is, never through the URL-to-host filter.
    expect(SERVICE_URL_HELP).toContain('https://app.example.com');
  });
});

describe('the panel requests', () => {
  const page = (data: unknown[]) =>
    json(200, {
      data,
      meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
    });

  /** A fetch answering by method and path, recording each call. */
  function route(answers: Record<string, (body: unknown) => Response>) {
    const calls: { method: string; path: string; body: unknown }[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const url = new URL(String(input));
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, path: url.pathname + url.search, body });
      if (url.pathname === '/auth/api_token') return json(200, { 'x-access-token': TOKEN });
      const answer = answers[`${method} ${url.pathname}`];
      return answer
        ? answer(body)
        : json(404, { error: { code: 'not_found', message: 'no', request_id: 'r' } });
    });
    return { fetch, calls };
  }

  it('remembers a choice only where the service says the task landed', async () => {
    const { fetch } = route({ 'POST /v2/tasks': () => json(201, { data: TASK, meta: { request_id: 'r' } }) });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const request = {
      type: 'task.create',
      task: { list_id: 'lst_9', thread_id: '18c2f0a1b2c3d4e5' },
      choice: { team_id: 'team_2', board_id: 'brd_9', list_id: 'lst_9' },
      idempotency_key: 'key-0002',
    } as const;
    expect(await handle(request)).toMatchObject({ ok: true });
    expect(await choiceItem.getValue()).toBeNull();
  });

  it('assigns the new task over v1 to the chosen member, and says the task exists when that fails', async () => {
    let assign = json(200, { success: true });
    const { fetch, calls } = route({
      'POST /v2/tasks': () => json(201, { data: TASK, meta: { request_id: 'r' } }),
      'POST /api/v1/items/assignTask': () => assign,
      'GET /v2/tasks/tsk_1': () =>
        json(200, {
          data: { ...TASK, assignee: { name: 'Avery', email: 'avery@x.test' } },
          meta: { request_id: 'r' },
        }),
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const request = {
      type: 'task.create',
      task: { list_id: 'lst_1', thread_id: '18c2f0a1b2c3d4e5' },
      choice: { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' },
      idempotency_key: 'key-0003',
      assignee_email: 'avery@x.test',
    } as const;
    expect(await handle(request)).toMatchObject({ ok: true, data: { assignee: { email: 'avery@x.test' } } });
    expect(calls.find((call) => call.path === '/api/v1/items/assignTask')?.body).toEqual({
      itemId: 'tsk_1',
      assigneeEmail: 'avery@x.test',
    });
    assign = json(400, { error: { code: 'validation_error', message: 'not a member', request_id: 'r' } });
    const failed = await handle(request);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(!failed.ok && failed.error.message).toMatch(/^The task was created, but assigning it failed/);
  });

  it('finds open tasks by title across the team boards, a full title first', async () => {
    const task = (id: string, title: string) => ({ ...TASK, id, title });
    const { fetch, calls } = route({
      'GET /v2/boards': () =>
        page([
          { id: 'brd_1', name: 'A', board_type: 'shared', template: null, team_id: 't', subscription: null },
          { id: 'brd_2', name: 'B', board_type: 'shared', template: null, team_id: 't', subscription: null },
        ]),
      'GET /v2/tasks': () =>
        page([
          task('tsk_a', 'Roof quote follow-up'),
          task('tsk_b', 'Call the bank'),
          task('tsk_c', 'Roof quote'),
        ]),
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const found = await handle({ type: 'tasks.search', team_id: 't', query: 'ROOF quote' });
    expect(found.ok && (found.data as { id: string }[]).map((item) => item.id)).toEqual([
      'tsk_c',
      'tsk_c',
      'tsk_a',
      'tsk_a',
    ]);
    const listed = calls.filter((call) => call.path.startsWith('/v2/tasks'));
    expect(listed.map((call) => call.path)).toEqual([
      expect.stringContaining('board_id=brd_1'),
      expect.stringContaining('board_id=brd_2'),
    ]);
    expect(listed[0]!.path).toContain('completed=false');
  });

  it('finds a title whatever its punctuation: "orchard foods rollout" finds "Orchard Foods: rollout"', async () => {
    const task = (id: string, title: string) => ({ ...TASK, id, title });
    const { fetch } = route({
      'GET /v2/boards': () =>
        page([
          { id: 'brd_1', name: 'A', board_type: 'shared', template: null, team_id: 't', subscription: null },
        ]),
      'GET /v2/tasks': () =>
        page([
          task('tsk_a', 'Orchard Foods: rollout'),
          task('tsk_b', 'Rollout plan — Orchard-Foods (Q3)'),
          task('tsk_c', 'Orchard visit'),
        ]),
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const found = await handle({ type: 'tasks.search', team_id: 't', query: 'orchard foods rollout' });
    expect(found.ok && (found.data as { id: string }[]).map((item) => item.id)).toEqual(['tsk_a', 'tsk_b']);
  });

  it('links this thread to an existing task with the v2 link-thread call', async () => {
    const { fetch, calls } = route({
      'POST /v2/tasks/tsk_1/threads': () =>
        json(200, { data: { id: 'tsk_1', thread_ids: ['18c2f0a1b2c3d4e5'] }, meta: { request_id: 'r' } }),
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    expect(
      await handle({ type: 'task.linkThread', task_id: 'tsk_1', thread_id: '18c2f0a1b2c3d4e5' }),
    ).toMatchObject({
      ok: true,
      data: { thread_ids: ['18c2f0a1b2c3d4e5'] },
    });
    expect(calls.at(-1)?.body).toEqual({ thread_id: '18c2f0a1b2c3d4e5' });
  });
});

describe('where a task may go, and the thread', () => {
  const ok = (data: unknown) => json(200, { data, meta: { request_id: 'r' } });
  const notFound = (message: string) => json(404, { error: { code: 'not_found', message, request_id: 'r' } });
  const page = (data: unknown[]) =>
    json(200, {
      data,
      meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
    });
  const THREAD = '18c2f0a1b2c3d4e5';
  /** The thread as GET /email-threads/{id} answers it. */
  const thread = (linked: { id: string; title: string }[]) => ({
    provider: 'gmail',
    thread_id: THREAD,
    message_ids: [THREAD],
    subject: 'Quote',
    participants: [],
    latest_message_at: null,
    snippet: null,
    direction: 'inbound',
    unread: false,
    linked_tasks: linked,
  });

  async function serving(answers: Record<string, (body: unknown) => Response | Promise<Response>>) {
    const calls: { method: string; path: string; body: unknown }[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const url = new URL(String(input));
      const method = init?.method ?? 'GET';
      calls.push({
        method,
        path: url.pathname,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.pathname === '/auth/api_token') return json(200, { 'x-access-token': TOKEN });
      return answers[`${method} ${url.pathname}`]?.(calls.at(-1)!.body) ?? notFound('no such path');
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    return { handle, calls };
  }

  it('lists the personal boards and a board’s custom fields', async () => {
    const mine = {
      id: 'brd_me',
      name: 'My board',
      board_type: 'private',
      template: null,
      team_id: null,
      subscription: null,
    };
    const field = {
      id: 'fld_1',
      name: 'Budget',
      type: 'number',
      ai: false,
      display_on_card: false,
      options: null,
    };
    const { handle } = await serving({
      'GET /v2/personal-boards': () => page([mine]),
      'GET /v2/boards/brd_me/custom-fields': () => page([field]),
    });
    expect(await handle({ type: 'boards.personal' })).toEqual({ ok: true, data: [mine] });
    expect(await handle({ type: 'fields.list', board_id: 'brd_me' })).toEqual({ ok: true, data: [field] });
  });

  /** What a warm asks for the last choice (team_1, brd_1), each answered with an empty page. */
  const warmedRoutes = () => ({
    'GET /v2/teams': () => page([]),
    'GET /v2/personal-boards': () => page([]),
    'GET /v2/boards': () => page([]),
    'GET /v2/boards/brd_1/lists': () => page([]),
    'GET /v2/boards/brd_1/members': () => page([]),
    'GET /v2/boards/brd_1/custom-fields': () => page([]),
  });

  it('asks for the last choice’s teams, boards and lists ahead of the panel, and answers the panel’s first ask with them', async () => {
    const { handle, calls } = await serving(warmedRoutes());
    await choiceItem.setValue({ team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' });
    expect(await handle({ type: 'panel.warm' })).toEqual({ ok: true, data: { warmed: true } });
    // Warming twice asks once.
    await handle({ type: 'panel.warm' });
    await vi.waitFor(() => expect(calls.filter((call) => call.path.startsWith('/v2/'))).toHaveLength(6));
    const asked = () => calls.filter((call) => call.path === '/v2/boards/brd_1/lists').length;
    expect(await handle({ type: 'lists.list', board_id: 'brd_1' })).toEqual({ ok: true, data: [] });
    expect(asked()).toBe(1);
    // Only the first ask: the next one is asked of the service (a Retry wants a fresh answer).
    await handle({ type: 'lists.list', board_id: 'brd_1' });
    expect(asked()).toBe(2);
  });

  it('answers a panel ask that overtakes the warm with the warm’s answer, and keeps nothing for later', async () => {
    const { handle, calls } = await serving(warmedRoutes());
    await choiceItem.setValue({ team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' });
    const asked = () => calls.filter((call) => call.path === '/v2/boards/brd_1/lists').length;
    // The panel asks while the warm still reads the settings: one request serves both.
    const [, first] = await Promise.all([
      handle({ type: 'panel.warm' }),
      handle({ type: 'lists.list', board_id: 'brd_1' }),
    ]);
    expect(first).toEqual({ ok: true, data: [] });
    await vi.waitFor(() => expect(calls.filter((call) => call.path.startsWith('/v2/'))).toHaveLength(6));
    expect(asked()).toBe(1);
    // A Retry's ask goes to the service, not to an answer the warm kept behind the panel's first ask.
    await handle({ type: 'lists.list', board_id: 'brd_1' });
    expect(asked()).toBe(2);
  });

  it('keeps no failed answer of a warm: the ask after the service is back goes to the service', async () => {
    let up = false;
    const { handle, calls } = await serving({
      'GET /v2/teams': () =>
        up ? page([]) : json(403, { error: { code: 'forbidden', message: 'no', request_id: 'r' } }),
    });
    expect(await handle({ type: 'panel.warm' })).toEqual({ ok: true, data: { warmed: true } });
    await vi.waitFor(() => expect(calls.filter((call) => call.path === '/v2/teams')).toHaveLength(1));
    // Long after the failure is known (the service answers at once).
    await new Promise((resolve) => setTimeout(resolve, 50));
    up = true;
    expect(await handle({ type: 'teams.list' })).toEqual({ ok: true, data: [] });
    expect(calls.filter((call) => call.path === '/v2/teams')).toHaveLength(2);
  });

  it('sends what the panel can show later two at a time, never taking every connection', async () => {
    let open = 0;
    let most = 0;
    const gate: (() => void)[] = [];
    const slow = () =>
      new Promise<Response>((resolve) => {
        open += 1;
        most = Math.max(most, open);
        gate.push(() => {
          open -= 1;
          resolve(page([]));
        });
      });
    const { handle } = await serving({
      'GET /v2/boards/brd_1/members': slow,
      'GET /v2/boards/brd_1/custom-fields': slow,
      'GET /v2/boards/brd_2/members': slow,
      'GET /v2/teams': () => page([]),
    });
    // Signed in first: the token call is not what this measures.
    await handle({ type: 'me.get' });
    const later = [
      handle({ type: 'members.list', board_id: 'brd_1' }),
      handle({ type: 'fields.list', board_id: 'brd_1' }),
      handle({ type: 'members.list', board_id: 'brd_2' }),
    ];
    await vi.waitFor(() => expect(open).toBe(2));
    // What the form waits for is not held behind them.
    expect(await handle({ type: 'teams.list' })).toEqual({ ok: true, data: [] });
    while (gate.length > 0 || open > 0) {
      gate.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(later);
    expect(most).toBe(2);
  });

  it('says a thread the service does not know is not known, as a state rather than a failure', async () => {
    const { handle } = await serving({
      [`GET /v2/email-threads/${THREAD}`]: () => notFound(`thread ${THREAD} was not found`),
    });
    expect(await handle({ type: 'thread.get', thread_id: THREAD })).toEqual({
      ok: true,
      data: { known: false, tasks: [] },
    });
  });

  it('names a thread’s tasks at once, and reads their state apart, two at a time', async () => {
    const linked = Array.from({ length: 10 }, (_, index) => ({ id: `tsk_${index}`, title: `Task ${index}` }));
    let reading = 0;
    let most = 0;
    const read = async (id: string) => {
      reading += 1;
      most = Math.max(most, reading);
      await new Promise((resolve) => setTimeout(resolve, 5));
      reading -= 1;
      return id === 'tsk_3' ? notFound('not yours') : ok({ ...TASK, id, title: `${id} as it is now` });
    };
    const { handle, calls } = await serving({
      [`GET /v2/email-threads/${THREAD}`]: () => ok(thread(linked)),
      ...Object.fromEntries(linked.map(({ id }) => [`GET /v2/tasks/${id}`, () => read(id)])),
    });
    expect(await handle({ type: 'thread.get', thread_id: THREAD })).toEqual({
      ok: true,
      data: {
        known: true,
        tasks: linked.map((task) => ({ ...task, completed: null, board_name: null, list_name: null })),
      },
    });
    expect(calls.some((call) => call.path.startsWith('/v2/tasks/'))).toBe(false);
    const states = await handle({ type: 'tasks.states', task_ids: linked.map((task) => task.id) });
    // The one the user may not see is left out; the panel shows it by its title.
    expect(states.ok && (states.data as { id: string }[]).map((task) => task.id)).toEqual(
      linked.map((task) => task.id).filter((id) => id !== 'tsk_3'),
    );
    expect(most).toBe(2);
  });

  it('answers a create refused for an unknown thread as thread_unknown, and a missing list as not_found', async () => {
    let threadKnown = false;
    const { handle } = await serving({
      'POST /v2/tasks': () =>
        notFound(threadKnown ? 'list lst_1 was not found' : `thread ${THREAD} was not found`),
      [`GET /v2/email-threads/${THREAD}`]: () => (threadKnown ? ok(thread([])) : notFound('no')),
    });
    const create = {
      type: 'task.create',
      task: { list_id: 'lst_1', thread_id: THREAD },
      choice: { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' },
      idempotency_key: 'key-0009',
    } as const;
    expect(await handle(create)).toMatchObject({ ok: false, error: { kind: 'thread_unknown' } });
    threadKnown = true;
    expect(await handle(create)).toMatchObject({
      ok: false,
      error: { kind: 'not_found', code: 'not_found' },
    });
  });

  it('sets the custom fields after the create, and says the task exists when that fails', async () => {
    let patch = (body: unknown) =>
      ok({ ...TASK, custom_fields: (body as { custom_fields: unknown }).custom_fields });
    const { handle, calls } = await serving({
      'POST /v2/tasks': () => ok(TASK),
      'PATCH /v2/tasks/tsk_1': (body) => patch(body),
    });
    const request = {
      type: 'task.create',
      task: { list_id: 'lst_1', thread_id: THREAD },
      choice: { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_1' },
      idempotency_key: 'key-0010',
      custom_fields: [
        { field_id: 'fld_budget', value: 1200 },
        { field_id: 'fld_stage', value: ['opt_won'] },
      ],
    } as const;
    expect(await handle(request)).toMatchObject({
      ok: true,
      data: { id: 'tsk_1', custom_fields: [{ field_id: 'fld_budget', value: 1200 }, expect.anything()] },
    });
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      custom_fields: request.custom_fields,
    });
    patch = () => json(400, { error: { code: 'validation_error', message: 'no', request_id: 'r' } });
    const failed = await handle(request);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'invalid', code: 'task_created' } });
    expect(!failed.ok && failed.error.message).toMatch(
      /^The task was created, but setting its fields failed/,
    );
  });

  it('says a key revoked elsewhere was revoked, not "no API key named …"', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(401, {
        error: {
          code: 'unauthenticated',
          message: 'no API key named "Browser" for ada@example.com',
          details: { field: 'api_key_name' },
          request_id: 'r',
        },
      }),
    );
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const answer = await handle({ type: 'teams.list' });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'bad_credentials' } });
    expect(!answer.ok && answer.error.message).toBe(
      'The service no longer accepts the key Threadwork signs in with: it may have been revoked or changed.',
    );
    // Testing a typed form keeps the service's own words: they name the field to fix.
    const tested = await handle({ type: 'settings.test', settings: SETTINGS });
    expect(!tested.ok && tested.error.message).toContain('no API key named "Browser"');
  });

  it('holds its own answers to the protocol: a shape it did not promise is a failure, not data', async () => {
    const { handle } = createService({
      fetch: vi.fn(),
      hasHostPermission: async () => true,
      openTab: async () => {},
      openOptions: async () => {},
      shortcuts: {
        current: async () => 42 as never,
        where: 'chrome://extensions/shortcuts',
        open: async () => true,
      },
    });
    expect(await handle({ type: 'shortcut.get' })).toMatchObject({ ok: false, error: { kind: 'unknown' } });
  });

  it('keeps each thread’s draft, written at once from two panels', async () => {
    const { handle } = service(vi.fn());
    const draft = (notes: string) => ({
      title: 'Quote',
      notes,
      due: '',
      position: 'top',
      archive: false,
      fields: {},
      key: 'k-12345678',
      edited: true,
    });
    await Promise.all([
      handle({ type: 'drafts.put', thread_id: THREAD, draft: draft('one') }),
      handle({ type: 'drafts.put', thread_id: '18c2f0a1b2c3d4e6', draft: draft('two') }),
    ]);
    expect(await handle({ type: 'drafts.get' })).toEqual({
      ok: true,
      data: { [THREAD]: draft('one'), '18c2f0a1b2c3d4e6': draft('two') },
    });
    await handle({ type: 'drafts.put', thread_id: THREAD, draft: null });
    expect(await handle({ type: 'drafts.get' })).toEqual({
      ok: true,
      data: { '18c2f0a1b2c3d4e6': draft('two') },
    });
    // Memory only, like the session token: gone with the browser session.
    expect(await fakeBrowser.storage.local.get(null)).not.toHaveProperty('drafts');
  });
});

describe('setting up', () => {
  it('tests the form it is given (an empty secret: the saved one), and stores nothing', async () => {
    const tokenRequests: URL[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input) => {
      const url = new URL(String(input));
      if (url.pathname === '/auth/api_token') {
        tokenRequests.push(url);
        return json(200, { 'x-access-token': TOKEN });
      }
      return json(200, {
        data: { user_id: 'usr_1', email: 'new@example.com', display_name: 'New' },
        meta: { request_id: 'req_1' },
      });
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    const answer = await handle({
      type: 'settings.test',
      settings: { ...SETTINGS, origin: 'http://127.0.0.1:7777', apiKey: 'typed', apiSecret: '' },
    });
    expect(answer).toMatchObject({ ok: true, data: { user_id: 'usr_1' } });
    const body = await fetch.mock.calls.at(-1)![0];
    expect(String(body)).toBe('http://127.0.0.1:7777/v2/me');
    expect(tokenRequests).toHaveLength(1);
    // Exchanged at the form's origin with the typed key and the saved secret (the token endpoint's body or query).
    const sent = JSON.stringify([tokenRequests[0]!.href, fetch.mock.calls[0]![1]?.body ?? '']);
    expect(tokenRequests[0]!.origin).toBe('http://127.0.0.1:7777');
    expect(sent).toContain('typed');
    expect(sent).toContain('secret');
    // Nothing saved: the stored credentials and session are the saved ones.
    expect(await credentialsItem.getValue()).toMatchObject({
      origin: 'http://127.0.0.1:9999',
      apiKey: 'key',
    });
    expect(await sessionTokenItem.getValue()).toBeNull();
  });

  it('refuses to test an origin the extension may not reach', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const answer = await service(fetch, false).handle({ type: 'settings.test', settings: SETTINGS });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'permission' } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('names the key the extension signs in with, and signs out when that key is revoked', async () => {
    const keys = [
      {
        id: 'key_self',
        type: 'legacy',
        name: 'Browser',
        scopes: [],
        api_key: 'key',
        created_at: '2026-01-05T10:00:00.000Z',
        subscriptions: { webhooks: 0, hooks: 0 },
      },
      {
        id: 'key_other',
        type: 'legacy',
        name: 'Zapier',
        scopes: [],
        api_key: 'zap',
        created_at: '2026-01-05T10:00:00.000Z',
        subscriptions: { webhooks: 1, hooks: 2 },
      },
    ];
    const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname === '/auth/api_token') return json(200, { 'x-access-token': TOKEN });
      if (init?.method === 'DELETE')
        return json(200, {
          data: { id: url.pathname.split('/').pop(), deleted: true, webhooks_disabled: 0, hooks_deleted: 0 },
          meta: { request_id: 'r' },
        });
      return json(200, { data: keys, meta: { request_id: 'r', next_cursor: null } });
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: SETTINGS });
    expect(await handle({ type: 'keys.list' })).toMatchObject({
      ok: true,
      data: { self_id: 'key_self' },
    });
    expect(await handle({ type: 'keys.revoke', key_id: 'key_other' })).toEqual({
      ok: true,
      data: { id: 'key_other', signed_out: false },
    });
    expect((await credentialsItem.getValue())?.apiSecret).toBe('secret');
    expect(await handle({ type: 'keys.revoke', key_id: 'key_self' })).toEqual({
      ok: true,
      data: { id: 'key_self', signed_out: true },
    });
    expect(await credentialsItem.getValue()).toMatchObject({ apiKey: 'key', apiSecret: '' });
    expect(await sessionTokenItem.getValue()).toBeNull();
    // Signed out, and said so: not "not set up yet", which the user never was.
    expect(await handle({ type: 'me.get' })).toMatchObject({
      ok: false,
      error: { kind: 'signed_out', message: 'The key “Browser” was revoked.' },
    });
    expect(await handle({ type: 'settings.get' })).toMatchObject({
      ok: true,
      data: { settings: { configured: false, signedOut: true } },
    });
    // Another key entered: signed in again.
    await handle({ type: 'settings.save', settings: { ...SETTINGS, apiSecret: 'new' } });
    expect(await handle({ type: 'settings.get' })).toMatchObject({
      ok: true,
      data: { settings: { configured: true, signedOut: false } },
    });
  });

  it('answers the shortcut as the browser has it, unset as null', async () => {
    let current: string | undefined = 'Alt+Shift+K';
    const open = vi.fn(async () => true);
    const { handle } = createService({
      fetch: vi.fn(),
      hasHostPermission: async () => true,
      openTab: async () => {},
      openOptions: async () => {},
      shortcuts: { current: async () => current, where: 'chrome://extensions/shortcuts', open },
    });
    expect(await handle({ type: 'shortcut.get' })).toEqual({
      ok: true,
      data: { shortcut: 'Alt+Shift+K', where: 'chrome://extensions/shortcuts' },
    });
    current = '';
    expect(await handle({ type: 'shortcut.get' })).toMatchObject({ ok: true, data: { shortcut: null } });
    expect(await handle({ type: 'shortcut.configure' })).toEqual({ ok: true, data: { opened: true } });
    expect(open).toHaveBeenCalledOnce();
  });

  it('never answers a URL with its query string in an error message', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async (input) => {
      throw new TypeError(`request to ${String(input)} failed, reason: connect ECONNREFUSED`);
    });
    const { handle } = service(fetch);
    await handle({ type: 'settings.save', settings: { ...SETTINGS, apiSecret: 'sup3rs3cret' } });
    const answer = await handle({ type: 'me.get' });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expect(JSON.stringify(answer)).not.toContain('sup3rs3cret');
    expect(JSON.stringify(answer)).not.toContain('api_key=');
  });
});

describe('redact', () => {
  it('keeps a URL origin and path, never its query or fragment', () => {
    expect(
      redact('GET http://127.0.0.1:9/auth/api_token?email=a&api_key=k&api_secret=s failed (ECONNREFUSED)'),
    ).toBe('GET http://127.0.0.1:9/auth/api_token failed (ECONNREFUSED)');
    expect(redact('see https://x.test/a#token=1, then retry')).toBe('see https://x.test/a then retry');
    expect(redact('no URL here?')).toBe('no URL here?');
  });
});
