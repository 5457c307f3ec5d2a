/**
 * The task panel in happy-dom, answering through a fake message channel: where a task may go, what the form
 * holds and sends, how a failed create keeps or renews its Idempotency-Key, and what the panel says when it
 * cannot know. The same journeys run in real browsers in the *.browser.test.ts files.
 */
import { MAX_TITLE_LENGTH } from '@threadwork/shared/schemas';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Settings } from '../components/settings/Settings.tsx';
import { quickDue } from '../components/task/TaskForm.tsx';
import { TaskPanel } from '../components/task/TaskPanel.tsx';
import { loadDrafts } from '../components/task/useDraft.ts';
import type { ThreadMeta } from '../lib/frame.ts';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import type { ResponseOf } from '../lib/protocol.ts';
import { readableDetail } from '../lib/readable.ts';
import type { Access } from '../lib/ui/access.ts';
import { TASK as FIXTURE_TASK } from './helpers/fixtures.ts';
import { choose, fakeSend, type Handlers, mounted, settle, type } from './helpers/ui.ts';

type ApiKey = {
  id: string;
  type: string;
  name: string;
  scopes: string[];
  api_key: string | null;
  created_at: string;
};

let view: ReturnType<typeof mounted>;
let container: HTMLElement;
function mount(node: preact.ComponentChild) {
  view = mounted(node);
  container = view.container;
}
const byTestId = <T extends Element = HTMLElement>(id: string) => view.byTestId<T>(id);
const submitButton = () => byTestId<HTMLButtonElement>('threadwork-submit')!;

beforeEach(() => fakeBrowser.reset());
afterEach(() => view?.unmount());

const TEAM = { id: 'team_1', name: 'Acme', subscription: { plan: 'pro', status: 'active', paid: true } };
const TASK = { ...FIXTURE_TASK, list_id: 'lst_2', list_name: 'Doing' } as ResponseOf<'task.create'>;
const BOARD = { id: 'brd_1', name: 'Roadmap', board_type: 'shared', template: null, team_id: 'team_1' };
const MINE = { id: 'brd_me', name: 'My board', board_type: 'private', template: null, team_id: null };

/** Each test is its own account, so answers kept by one test never show in another. */
let account = 0;
beforeEach(() => {
  account += 1;
});

/** What `settings.get` answers once the extension is set up, with the last create's choice. */
const configured = (
  choice: ResponseOf<'settings.get'>['choice'] = { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_2' },
) => ({
  settings: {
    origin: `http://service-${account}.test`,
    email: 'a',
    apiKey: 'k',
    keyName: 'n',
    hasSecret: true,
    configured: true,
    signedOut: false,
  },
  choice,
});

const THREAD: ThreadMeta = {
  id: '18c2f0a1b2c3d4e5',
  subject: 'Quote 🏠',
  url: 'https://mail.google.com/mail/u/0/#inbox/FMfcgzQXJroof',
  message: { sender: 'Bob <bob@stone.test>', text: 'Hi Ada,\nthe quote is attached.' },
};

const granted: Access = { ask: async () => 'granted', watch: () => () => {} };

/** The task panel on `thread`, answering through `send`; its kept drafts start empty. */
async function mountPanel(
  send: Send,
  thread: Partial<ThreadMeta> = {},
  onOpenSettings: () => void = () => {},
) {
  await loadDrafts(send);
  mount(
    <TaskPanel
      thread={{ ...THREAD, ...thread }}
      send={send}
      access={granted}
      onOpenSettings={onOpenSettings}
    />,
  );
  await settle();
}

function panelHandlers(overrides: Handlers = {}): Handlers {
  return {
    'settings.get': () => configured(),
    'drafts.get': () => ({}),
    'drafts.put': (request) => ({ thread_id: request.thread_id }),
    'teams.list': () => [TEAM] as never,
    'boards.personal': () => [],
    'boards.list': () => [BOARD] as never,
    'lists.list': () => [
      { id: 'lst_1', name: 'To do', board_id: 'brd_1' },
      { id: 'lst_2', name: 'Doing', board_id: 'brd_1' },
    ],
    'members.list': () => [{ user_id: 'usr_1', email: 'avery@x.test', display_name: 'Avery Operator' }],
    'fields.list': () => [],
    'thread.get': () => ({ known: true, tasks: [] }),
    'tasks.states': () => [],
    ...overrides,
  };
}

const creates = (requests: { type: string; [key: string]: unknown }[]) =>
  requests.filter((request) => request.type === 'task.create') as unknown as {
    task: Record<string, unknown>;
    idempotency_key: string;
    custom_fields?: unknown;
  }[];

describe('the task panel', () => {
  it('prefills the title, picks the remembered list, and keeps what was typed when the service is down', async () => {
    let fail = true;
    const { send, requests } = fakeSend(
      panelHandlers({
        'task.create': () => {
          if (fail) throw new ExtensionError({ kind: 'unreachable', message: 'fetch failed' });
          return TASK;
        },
      }),
    );
    await mountPanel(send);
    expect(byTestId<HTMLTextAreaElement>('threadwork-title')!.value).toBe('Quote 🏠');
    expect(byTestId<HTMLSelectElement>('threadwork-list')!.value).toBe('lst_2');
    type(byTestId<HTMLTextAreaElement>('threadwork-notes')!, 'Call Bob');
    await settle();
    submitButton().click();
    await settle();
    const error = byTestId('threadwork-error')!;
    expect(error.dataset['kind']).toBe('unreachable');
    expect(error.textContent).toContain('could not be reached');
    // What the click started is said by the button, below the form.
    expect(submitButton().compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(byTestId<HTMLTextAreaElement>('threadwork-notes')!.value).toBe('Call Bob');

    // The answer may have been lost after the service made the task: the retry is the same operation, so it
    // carries the same Idempotency-Key, even once the user changed the form in between.
    type(byTestId<HTMLTextAreaElement>('threadwork-notes')!, 'Call Bob today');
    await settle();
    fail = false;
    submitButton().click();
    await settle();
    const sent = creates(requests);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.idempotency_key).toBe(sent[1]!.idempotency_key);
    expect(sent[1]!.task).toEqual({
      list_id: 'lst_2',
      thread_id: '18c2f0a1b2c3d4e5',
      title: 'Quote 🏠',
      notes: 'Call Bob today',
      position: 'top',
    });
    expect(byTestId('threadwork-confirmation')!.textContent).toContain('Roadmap');
    expect(byTestId('threadwork-confirmation')!.textContent).toContain('Doing');
  });

  it('makes a new key only once the service said the create did nothing, or after a success', async () => {
    let answer: () => ResponseOf<'task.create'> = () => {
      throw new ExtensionError({ kind: 'not_found', code: 'not_found', message: 'list lst_2 was not found' });
    };
    const { send, requests } = fakeSend(panelHandlers({ 'task.create': () => answer() }));
    await mountPanel(send);
    submitButton().click();
    await settle();
    // A 4xx is stored with its key by the service: sent again, that key would only replay the refusal.
    answer = () => TASK;
    submitButton().click();
    await settle();
    byTestId<HTMLButtonElement>('threadwork-create-another')!.click();
    await settle();
    submitButton().click();
    await settle();
    const keys = creates(requests).map((create) => create.idempotency_key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
  });

  it('keeps the key when the task was made and a later step failed, and says what happened on a conflict', async () => {
    let answer: () => ResponseOf<'task.create'> = () => {
      throw new ExtensionError({
        kind: 'invalid',
        code: 'task_created',
        message: 'The task was created, but assigning it failed: not a member',
      });
    };
    const { send, requests } = fakeSend(panelHandlers({ 'task.create': () => answer() }));
    await mountPanel(send);
    submitButton().click();
    await settle();
    expect(byTestId('threadwork-error')!.textContent).toContain('The task was created');
    answer = () => {
      throw new ExtensionError({ kind: 'invalid', code: 'idempotency_conflict', message: 'other body' });
    };
    submitButton().click();
    await settle();
    expect(byTestId('threadwork-error')!.textContent).toContain('may have made it');
    expect(byTestId('threadwork-retry')).toBeNull();
    answer = () => TASK;
    submitButton().click();
    await settle();
    const keys = creates(requests).map((create) => create.idempotency_key);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('offers the settings when not set up and no Retry where it cannot help (not set up, unpaid team)', async () => {
    const openSettings = vi.fn();
    const { send } = fakeSend(
      panelHandlers({
        'teams.list': () => {
          throw new ExtensionError({
            kind: 'subscription',
            message: 'subscription required',
            code: 'subscription_required',
          });
        },
      }),
    );
    await mountPanel(send, {}, openSettings);
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('subscription');
    expect(byTestId('threadwork-retry')).toBeNull();
    view.unmount();

    const notConfigured = fakeSend(
      panelHandlers({
        'settings.get': () => ({
          settings: { ...configured().settings, configured: false, hasSecret: false },
          choice: null,
        }),
      }),
    );
    await mountPanel(notConfigured.send, {}, openSettings);
    const error = byTestId('threadwork-error')!;
    expect(error.dataset['kind']).toBe('not_configured');
    expect(byTestId('threadwork-retry')).toBeNull();
    error.querySelector('button')!.click();
    expect(openSettings).toHaveBeenCalled();
    view.unmount();

    // Signed out by revoking its own key: said as such, not as "not set up yet".
    const signedOut = fakeSend(
      panelHandlers({
        'settings.get': () => ({
          settings: { ...configured().settings, configured: false, hasSecret: false, signedOut: true },
          choice: null,
        }),
      }),
    );
    await mountPanel(signedOut.send);
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('signed_out');
    expect(byTestId('threadwork-error')!.textContent).toContain('the key it signed in with was revoked');
    expect(byTestId('threadwork-error')!.textContent).not.toContain('not set up');
  });
});

describe('where a task may go', () => {
  it('offers the personal boards under "Personal" in the team picker, and creates there', async () => {
    const { send, requests } = fakeSend(
      panelHandlers({
        'boards.personal': () => [MINE] as never,
        'lists.list': (request) =>
          request.board_id === 'brd_me'
            ? [{ id: 'lst_mine', name: 'Inbox', board_id: 'brd_me' }]
            : [{ id: 'lst_2', name: 'Doing', board_id: 'brd_1' }],
        'task.create': () => TASK,
      }),
    );
    await mountPanel(send);
    const team = byTestId<HTMLSelectElement>('threadwork-team')!;
    expect([...team.options].map((option) => option.textContent)).toEqual(['Acme', 'Personal']);
    choose(team, 'personal');
    await settle();
    expect(byTestId<HTMLSelectElement>('threadwork-board')!.value).toBe('brd_me');
    expect(byTestId<HTMLSelectElement>('threadwork-list')!.value).toBe('lst_mine');
    expect(submitButton().disabled).toBe(false);
    // The team's boards are never asked for a personal board.
    expect(
      requests.filter((request) => request.type === 'boards.list' && request['team_id'] === 'personal'),
    ).toEqual([]);
    submitButton().click();
    await settle();
    expect(creates(requests)[0]!.task).toMatchObject({ list_id: 'lst_mine' });
    expect(requests.find((request) => request.type === 'task.create')?.['choice']).toEqual({
      team_id: 'personal',
      board_id: 'brd_me',
      list_id: 'lst_mine',
    });
  });

  it('has no "Personal" entry for a user without personal boards', async () => {
    const { send } = fakeSend(panelHandlers());
    await mountPanel(send);
    expect(
      [...byTestId<HTMLSelectElement>('threadwork-team')!.options].map((option) => option.value),
    ).toEqual(['team_1']);
  });

  it('offers the board’s own fields, each as its kind takes it, and sets the ones filled in', async () => {
    const fields = [
      { id: 'f_text', name: 'Customer', type: 'text', ai: false, display_on_card: false, options: null },
      { id: 'f_num', name: 'Budget', type: 'number', ai: false, display_on_card: false, options: null },
      { id: 'f_date', name: 'Visit', type: 'date', ai: false, display_on_card: false, options: null },
      { id: 'f_check', name: 'Urgent', type: 'checkbox', ai: false, display_on_card: false, options: null },
      {
        id: 'f_stage',
        name: 'Stage',
        type: 'status',
        ai: false,
        display_on_card: true,
        options: [
          { id: 'o_new', label: 'New' },
          { id: 'o_won', label: 'Won' },
        ],
      },
      {
        id: 'f_tags',
        name: 'Tags',
        type: 'tag',
        ai: false,
        display_on_card: true,
        options: [
          { id: 'o_roof', label: 'Roof' },
          { id: 'o_gutter', label: 'Gutter' },
        ],
      },
      { id: 'f_ai', name: 'Sentiment', type: 'select', ai: true, display_on_card: false, options: [] },
      { id: 'f_url', name: 'Site', type: 'url', ai: false, display_on_card: false, options: null },
    ];
    const { send, requests } = fakeSend(
      panelHandlers({ 'fields.list': () => fields as never, 'task.create': () => TASK }),
    );
    await mountPanel(send);
    const field = (id: string) => container.querySelector<HTMLElement>(`[data-field-id="${id}"]`);
    // The AI's own field is not the user's to fill in.
    expect(field('f_ai')).toBeNull();
    const inputType = (id: string) => field(id)!.querySelector('input, select, textarea')!;
    expect((inputType('f_num') as HTMLInputElement).type).toBe('number');
    expect((inputType('f_date') as HTMLInputElement).type).toBe('date');
    expect((inputType('f_check') as HTMLInputElement).type).toBe('checkbox');
    expect((inputType('f_url') as HTMLInputElement).type).toBe('url');
    expect(inputType('f_stage').tagName).toBe('SELECT');
    expect(field('f_tags')!.querySelectorAll('input[type="checkbox"]')).toHaveLength(2);

    type(inputType('f_num') as HTMLInputElement, '1200.5');
    type(inputType('f_date') as HTMLInputElement, '2026-02-03');
    (inputType('f_check') as HTMLInputElement).click();
    choose(inputType('f_stage') as HTMLSelectElement, 'o_won');
    field('f_tags')!.querySelector<HTMLInputElement>('input[value="o_gutter"]')!.click();
    await settle();
    submitButton().click();
    await settle();
    expect(creates(requests)[0]!.custom_fields).toEqual([
      { field_id: 'f_num', value: 1200.5 },
      { field_id: 'f_date', value: '2026-02-03' },
      { field_id: 'f_check', value: true },
      { field_id: 'f_stage', value: ['o_won'] },
      { field_id: 'f_tags', value: ['o_gutter'] },
    ]);
  });

  it('cuts a long subject to the service’s title limit, marked with "…"', async () => {
    const { send } = fakeSend(panelHandlers());
    await mountPanel(send, { subject: `${'Roof repair quote '.repeat(100)}🏠` });
    const title = byTestId<HTMLTextAreaElement>('threadwork-title')!;
    expect(title.value.length).toBe(MAX_TITLE_LENGTH);
    expect(title.value.endsWith('…')).toBe(true);
    expect(title.maxLength).toBe(MAX_TITLE_LENGTH);
  });
});

describe('the notes', () => {
  it('start as the open message’s text and a link back to the thread, marked as such, and clear in one click', async () => {
    const { send, requests } = fakeSend(panelHandlers({ 'task.create': () => TASK }));
    await mountPanel(send);
    const notes = byTestId<HTMLTextAreaElement>('threadwork-notes')!;
    expect(notes.value).toBe(
      'From Bob <bob@stone.test>:\nHi Ada,\nthe quote is attached.\n\nThread: https://mail.google.com/mail/u/0/#inbox/FMfcgzQXJroof',
    );
    expect(byTestId('threadwork-notes-hint')!.textContent).toContain('Filled in from the email');
    expect(notes.getAttribute('aria-describedby')).toBe('tw-notes-hint');
    byTestId<HTMLButtonElement>('threadwork-notes-clear')!.click();
    await settle();
    expect(notes.value).toBe('');
    expect(byTestId('threadwork-notes-hint')).toBeNull();
    submitButton().click();
    await settle();
    expect(creates(requests)[0]!.task).not.toHaveProperty('notes');
  });

  it('are kept per thread until the task is made or the draft discarded', async () => {
    const kept: Record<string, unknown> = {};
    const handlers = panelHandlers({
      'drafts.get': () => ({ ...kept }) as never,
      'drafts.put': (request) => {
        if (request.draft === null) delete kept[request.thread_id];
        else kept[request.thread_id] = request.draft;
        return { thread_id: request.thread_id };
      },
      'task.create': () => TASK,
    });
    const { send } = fakeSend(handlers);
    await mountPanel(send);
    type(byTestId<HTMLTextAreaElement>('threadwork-notes')!, 'Call Bob back');
    await settle();
    view.unmount();
    // The panel comes back for the thread (another frame, the same browser session): the draft is there.
    await mountPanel(send);
    expect(byTestId<HTMLTextAreaElement>('threadwork-notes')!.value).toBe('Call Bob back');
    expect(byTestId('threadwork-restored-draft')!.textContent).toContain('unsent draft');
    byTestId('threadwork-restored-draft')!.querySelector('button')!.click();
    await settle();
    expect(byTestId<HTMLTextAreaElement>('threadwork-notes')!.value).toContain('Hi Ada');
    expect(kept).toEqual({});
  });
});

describe('a thread the service does not know', () => {
  it('says so in plain words and creates the task without the link', async () => {
    const { send, requests } = fakeSend(
      panelHandlers({ 'thread.get': () => ({ known: false, tasks: [] }), 'task.create': () => TASK }),
    );
    await mountPanel(send);
    expect(byTestId('threadwork-thread-unknown')!.textContent).toContain(
      'This thread is not in Threadwork yet',
    );
    expect(byTestId('threadwork-error')).toBeNull();
    expect(byTestId('threadwork-archive')).toBeNull();
    expect(byTestId<HTMLInputElement>('threadwork-existing-task')!.disabled).toBe(true);
    expect(submitButton().textContent).toBe('Create task without the link');
    expect(container.textContent).toContain('None: this thread is not in Threadwork yet.');
    submitButton().click();
    await settle();
    expect(creates(requests)[0]!.task).toEqual({
      list_id: 'lst_2',
      title: 'Quote 🏠',
      notes: expect.stringContaining('Hi Ada'),
      position: 'top',
    });
  });

  it('switches to the unlinked create when the service refuses the thread before its own answer came', async () => {
    let first = true;
    const { send, requests } = fakeSend(
      panelHandlers({
        'thread.get': () => new Promise(() => {}) as never,
        'task.create': () => {
          if (!first) return TASK;
          first = false;
          throw new ExtensionError({
            kind: 'thread_unknown',
            message: 'Thread 18c2f0a1b2c3d4e5 is not in your connected mailbox.',
          });
        },
      }),
    );
    await mountPanel(send);
    submitButton().click();
    await settle();
    expect(byTestId('threadwork-thread-unknown')).not.toBeNull();
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('thread_unknown');
    submitButton().click();
    await settle();
    const [linked, unlinked] = creates(requests);
    expect(linked!.task).toHaveProperty('thread_id');
    expect(unlinked!.task).not.toHaveProperty('thread_id');
    expect(unlinked!.idempotency_key).not.toBe(linked!.idempotency_key);
  });
});

describe('on a slow service', () => {
  it('asks for everything of the remembered choice at once, in parallel, before any answer', async () => {
    // Nothing answers: the boards, lists, members and fields of the remembered board are asked all the same.
    const pending = fakeSend(
      Object.fromEntries(
        Object.entries(panelHandlers()).map(([type, handler]) => [
          type,
          type === 'settings.get' || type.startsWith('drafts') ? handler : () => new Promise(() => {}),
        ]),
      ) as Handlers,
    );
    await mountPanel(pending.send);
    expect(pending.requests.map((request) => request.type).sort()).toEqual(
      [
        'boards.list',
        'boards.personal',
        'drafts.get',
        'fields.list',
        'lists.list',
        'members.list',
        'settings.get',
        'teams.list',
        'thread.get',
      ].sort(),
    );
    expect(submitButton().disabled).toBe(true);
  });

  it('shows the choices and lists kept from the last use at once, Create usable, and refreshes them', async () => {
    // The last use: the service answered everything.
    const first = fakeSend(panelHandlers());
    await mountPanel(first.send);
    expect(submitButton().disabled).toBe(false);
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 150));

    // Now nothing answers: the kept answers show, and Create may send them.
    let answer: (lists: unknown) => void = () => {};
    const slow = fakeSend(
      panelHandlers({
        'teams.list': () => new Promise(() => {}) as never,
        'boards.list': () => new Promise(() => {}) as never,
        'lists.list': () => new Promise((resolve) => (answer = resolve)) as never,
      }),
    );
    await mountPanel(slow.send);
    expect(byTestId<HTMLSelectElement>('threadwork-team')!.value).toBe('team_1');
    expect(byTestId<HTMLSelectElement>('threadwork-list')!.value).toBe('lst_2');
    expect(submitButton().disabled).toBe(false);
    // The fresh answer replaces the kept one.
    answer([
      { id: 'lst_2', name: 'Doing now', board_id: 'brd_1' },
      { id: 'lst_3', name: 'Done', board_id: 'brd_1' },
    ]);
    await settle();
    expect(
      [...byTestId<HTMLSelectElement>('threadwork-list')!.options].map((option) => option.textContent),
    ).toEqual(['Doing now', 'Done']);
  });
});

describe('the task panel, when it cannot know', () => {
  it('says "unknown", not "None yet.", under an error, and Retry loads what failed', async () => {
    let down = true;
    const { send, requests } = fakeSend(
      panelHandlers({
        'thread.get': () => {
          if (down) throw new ExtensionError({ kind: 'unreachable', message: 'GET http://x/v2 failed' });
          return { known: true, tasks: [] };
        },
      }),
    );
    await mountPanel(send);
    expect(container.textContent).not.toContain('None yet.');
    expect(container.textContent).toContain('Unknown');
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('unreachable');
    // What could not load is said above the form, where it is seen on opening.
    expect(
      byTestId('threadwork-error')!.compareDocumentPosition(byTestId('threadwork-title')!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    down = false;
    byTestId<HTMLButtonElement>('threadwork-retry')!.click();
    await settle();
    expect(byTestId('threadwork-error')).toBeNull();
    expect(container.textContent).toContain('None yet.');
    expect(requests.filter((request) => request.type === 'thread.get')).toHaveLength(2);
    // The teams, which answered, were not asked again.
    expect(requests.filter((request) => request.type === 'teams.list')).toHaveLength(1);
  });
});

describe('the default team', () => {
  it("is a paid one: a remembered team that lapsed gives way, while choosing an unpaid team stays the user's", async () => {
    const garage = {
      id: 'team_0',
      name: 'Garage',
      subscription: { plan: 'pro', status: 'unpaid', paid: false },
    };
    const { send, requests } = fakeSend(
      panelHandlers({
        'settings.get': () => configured({ team_id: 'team_0', board_id: 'brd_0', list_id: 'lst_0' }),
        'teams.list': () => [garage, TEAM] as never,
      }),
    );
    await mountPanel(send);
    expect(byTestId<HTMLSelectElement>('threadwork-team')!.value).toBe('team_1');
    expect(submitButton().disabled).toBe(false);
    const garageBoards = () =>
      requests.filter((request) => request.type === 'boards.list' && request['team_id'] === 'team_0');
    // The remembered team's boards were asked for with the teams, in parallel, before it was known unpaid.
    expect(garageBoards()).toHaveLength(1);
    choose(byTestId<HTMLSelectElement>('threadwork-team')!, 'team_0');
    await settle();
    expect(byTestId<HTMLSelectElement>('threadwork-team')!.value).toBe('team_0');
    expect(submitButton().disabled).toBe(true);
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('subscription');
    // Known unpaid, its boards are never asked for again.
    expect(garageBoards()).toHaveLength(1);
  });
});

describe('adding the thread to an existing task', () => {
  it('finds tasks whatever their punctuation, and never offers one the thread is already on', async () => {
    const { send, requests } = fakeSend(
      panelHandlers({
        'thread.get': () => ({
          known: true,
          tasks: [
            {
              id: 'tsk_a',
              title: 'Orchard Foods: rollout',
              completed: false,
              board_name: 'Roadmap',
              list_name: 'Doing',
            },
          ],
        }),
        'tasks.search': () => [
          { id: 'tsk_a', title: 'Orchard Foods: rollout', board_name: 'Roadmap', list_name: 'Doing' },
          { id: 'tsk_b', title: 'Orchard Foods rollout, phase 2', board_name: 'Roadmap', list_name: 'To do' },
        ],
        'task.linkThread': () => ({ id: 'tsk_b', thread_ids: [THREAD.id] }),
      }),
    );
    await mountPanel(send);
    type(byTestId<HTMLInputElement>('threadwork-existing-task')!, 'orchard foods rollout');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settle();
    const already = container.querySelector(
      '[data-testid="threadwork-existing-result"][data-task-id="tsk_a"]',
    )!;
    expect(already.getAttribute('data-linked')).toBe('true');
    expect(already.textContent).toContain('already has this thread');
    expect(already.querySelector<HTMLInputElement>('input')!.disabled).toBe(true);
    // The one it is not on is picked, and linked.
    byTestId<HTMLButtonElement>('threadwork-link-existing')!.click();
    await settle();
    expect(requests.filter((request) => request.type === 'task.linkThread')).toEqual([
      { type: 'task.linkThread', task_id: 'tsk_b', thread_id: THREAD.id },
    ]);
  });
});

describe('what the panel shows', () => {
  it('never shows a URL, a query string or a long message whole', () => {
    const shown = readableDetail(
      'POST http://svc.test:8080/auth/api_token?email=a%40b&api_key=k&api_secret=S3CRET failed: Failed to fetch',
    );
    expect(shown).toBe('svc.test:8080 failed: Failed to fetch');
    expect(readableDetail('token=abc&x=1 api_secret=zzz')).toBe('token=***&x=1 api_secret=***');
    expect(readableDetail('x'.repeat(500)).length).toBeLessThanOrEqual(180);
  });

  it('dates the quick due choices in the user time zone; next week is next Monday', () => {
    const wednesday = new Date(2026, 0, 7, 22, 30);
    expect(quickDue('today', wednesday)).toBe('2026-01-07');
    expect(quickDue('tomorrow', wednesday)).toBe('2026-01-08');
    expect(quickDue('next-week', wednesday)).toBe('2026-01-12');
    expect(quickDue('next-week', new Date(2026, 0, 12, 9))).toBe('2026-01-19');
    expect(quickDue('tomorrow', new Date(2026, 11, 31, 12))).toBe('2027-01-01');
  });
});

describe('the API tab', () => {
  it('creates a key and shows its secret once, in view and with the keyboard, and revokes only after a confirmation', async () => {
    let keys: ApiKey[] = [
      {
        id: 'key_1',
        type: 'v2',
        name: 'ci',
        scopes: ['boards.read'],
        api_key: null,
        created_at: '2026-01-05T10:00:00.000Z',
      },
    ];
    const { send, requests } = fakeSend({
      'settings.get': () => ({ settings: { ...configured().settings, configured: false }, choice: null }),
      'keys.list': () =>
        ({ keys, scopes: ['boards.read', 'tasks.write'], opt_in: [], self_id: null }) as never,
      'keys.create': (request) => {
        const created = {
          id: 'key_2',
          type: 'legacy',
          name: request.key.name,
          scopes: [],
          api_key: 'pub123',
          created_at: '2026-01-05T10:00:00.000Z',
        };
        keys = [...keys, created];
        return { ...created, api_secret: 'shh-secret' } as never;
      },
      'keys.revoke': (request) => {
        keys = keys.filter((key) => key.id !== request.key_id);
        return { id: request.key_id, signed_out: false };
      },
    });
    mount(<Settings send={send} access={granted} inPanel />);
    await settle();
    container.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1]!.click();
    await settle();
    expect(container.querySelectorAll('[data-testid="threadwork-key"]')).toHaveLength(1);
    type(byTestId<HTMLInputElement>('threadwork-key-name')!, 'Zapier');
    choose(byTestId<HTMLSelectElement>('threadwork-key-type')!, 'legacy');
    await settle();
    const scrolled = vi.fn();
    HTMLElement.prototype.scrollIntoView = scrolled;
    byTestId<HTMLButtonElement>('threadwork-key-create')!.click();
    await settle();
    expect(requests.find((request) => request.type === 'keys.create')).toMatchObject({
      key: { name: 'Zapier', type: 'legacy' },
    });
    expect(byTestId('threadwork-key-secret')!.textContent).toBe('shh-secret');
    // The shown-once secret takes the keyboard and is brought into view: never lost below the fold.
    expect(document.activeElement).toBe(byTestId('threadwork-key-created'));
    expect(scrolled).toHaveBeenCalled();
    expect(container.querySelectorAll('[data-testid="threadwork-key"]')).toHaveLength(2);

    const revoke = container.querySelector<HTMLButtonElement>(
      '[data-key-id="key_2"] [data-testid="threadwork-key-revoke"]',
    )!;
    revoke.click();
    await settle();
    expect(requests.some((request) => request.type === 'keys.revoke')).toBe(false);
    expect(revoke.textContent).toBe('Confirm revoke');
    revoke.click();
    await settle();
    expect(requests.filter((request) => request.type === 'keys.revoke')).toEqual([
      { type: 'keys.revoke', key_id: 'key_2' },
    ]);
    expect(container.querySelector('[data-key-id="key_2"]')).toBeNull();
    // The secret is gone with its key.
    expect(byTestId('threadwork-key-secret')).toBeNull();
  });
});
