import { afterEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../components/Settings.tsx';
import { quickDue, TaskPanel } from '../components/TaskPanel.tsx';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import type { ResponseOf } from '../lib/protocol.ts';
import { readableDetail } from '../lib/readable.ts';
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

afterEach(() => view.unmount());

const TEAM = { id: 'team_1', name: 'Acme', subscription: { plan: 'pro', status: 'active', paid: true } };
const TASK = { ...FIXTURE_TASK, list_id: 'lst_2', list_name: 'Doing' } as ResponseOf<'task.create'>;

/** What `settings.get` answers once the extension is set up, with the last create's choice. */
const configured = (choice = { team_id: 'team_1', board_id: 'brd_1', list_id: 'lst_2' }) => ({
  settings: { origin: 'http://x', email: 'a', apiKey: 'k', keyName: 'n', hasSecret: true, configured: true },
  choice,
});

/** The task panel on the thread "18c2f0a1b2c3d4e5" with `subject`, answering through `send`. */
function mountPanel(send: Send, subject: string, onOpenSettings: () => void = () => {}) {
  mount(
    <TaskPanel thread={{ id: '18c2f0a1b2c3d4e5', subject }} send={send} onOpenSettings={onOpenSettings} />,
  );
}

function panelHandlers(overrides: Handlers = {}): Handlers {
  return {
    'settings.get': () => configured(),
    'teams.list': () => [TEAM] as never,
    'boards.list': () =>
      [{ id: 'brd_1', name: 'Roadmap', board_type: 'shared', template: null, team_id: 'team_1' }] as never,
    'lists.list': () => [
      { id: 'lst_1', name: 'To do', board_id: 'brd_1' },
      { id: 'lst_2', name: 'Doing', board_id: 'brd_1' },
    ],
    'members.list': () => [{ user_id: 'usr_1', email: 'avery@x.test', display_name: 'Avery Operator' }],
    'thread.linkedTasks': () => [],
    ...overrides,
  };
}

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
    mountPanel(send, 'Quote 🏠');
    await settle();
    expect(byTestId<HTMLTextAreaElement>('threadwork-title')!.value).toBe('Quote 🏠');
    expect(byTestId<HTMLSelectElement>('threadwork-list')!.value).toBe('lst_2');
    type(byTestId<HTMLTextAreaElement>('threadwork-notes')!, 'Call Bob');
    await settle();
    byTestId<HTMLButtonElement>('threadwork-submit')!.click();
    await settle();
    const error = byTestId('threadwork-error')!;
    expect(error.dataset['kind']).toBe('unreachable');
    expect(error.textContent).toContain('could not be reached');
    expect(byTestId<HTMLTextAreaElement>('threadwork-notes')!.value).toBe('Call Bob');

    // The retry of the same form carries the same Idempotency-Key: the service makes one task.
    fail = false;
    byTestId<HTMLButtonElement>('threadwork-submit')!.click();
    await settle();
    const creates = requests.filter((request) => request.type === 'task.create');
    expect(creates).toHaveLength(2);
    expect(creates[0]!['idempotency_key']).toBe(creates[1]!['idempotency_key']);
    expect(creates[1]!['task']).toEqual({
      list_id: 'lst_2',
      thread_id: '18c2f0a1b2c3d4e5',
      title: 'Quote 🏠',
      notes: 'Call Bob',
      position: 'top',
    });
    expect(byTestId('threadwork-confirmation')!.textContent).toContain('Roadmap');
    expect(byTestId('threadwork-confirmation')!.textContent).toContain('Doing');
  });

  it('offers the settings when the extension is not configured, and the subscription advice when unpaid', async () => {
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
    mountPanel(send, 'Quote', openSettings);
    await settle();
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('subscription');
    view.unmount();

    const notConfigured = fakeSend(
      panelHandlers({
        'settings.get': () => ({
          settings: { origin: '', email: '', apiKey: '', keyName: '', hasSecret: false, configured: false },
          choice: null,
        }),
      }),
    );
    mountPanel(notConfigured.send, 'Quote', openSettings);
    await settle();
    const error = byTestId('threadwork-error')!;
    expect(error.dataset['kind']).toBe('not_configured');
    error.querySelector('button')!.click();
    expect(openSettings).toHaveBeenCalled();
  });
});

describe('the task panel, when it cannot know', () => {
  it('says "unknown", not "None yet.", under an error, and Retry loads what failed', async () => {
    let down = true;
    const { send, requests } = fakeSend(
      panelHandlers({
        'thread.linkedTasks': () => {
          if (down) throw new ExtensionError({ kind: 'unreachable', message: 'GET http://x/v2 failed' });
          return [];
        },
      }),
    );
    mountPanel(send, 'Quote');
    await settle();
    expect(container.textContent).not.toContain('None yet.');
    expect(container.textContent).toContain('Unknown');
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('unreachable');
    down = false;
    byTestId<HTMLButtonElement>('threadwork-retry')!.click();
    await settle();
    expect(byTestId('threadwork-error')).toBeNull();
    expect(container.textContent).toContain('None yet.');
    expect(requests.filter((request) => request.type === 'thread.linkedTasks')).toHaveLength(2);
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
    mountPanel(send, 'Quote');
    await settle();
    expect(byTestId<HTMLSelectElement>('threadwork-team')!.value).toBe('team_1');
    expect(byTestId<HTMLButtonElement>('threadwork-submit')!.disabled).toBe(false);
    choose(byTestId<HTMLSelectElement>('threadwork-team')!, 'team_0');
    await settle();
    expect(byTestId<HTMLSelectElement>('threadwork-team')!.value).toBe('team_0');
    expect(byTestId<HTMLButtonElement>('threadwork-submit')!.disabled).toBe(true);
    expect(byTestId('threadwork-error')!.dataset['kind']).toBe('subscription');
    // Its boards are never asked for.
    expect(
      requests.filter((request) => request.type === 'boards.list' && request['team_id'] === 'team_0'),
    ).toEqual([]);
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
  it('creates a key and shows its secret once, and revokes only after a confirmation', async () => {
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
      'settings.get': () => ({
        settings: { origin: '', email: '', apiKey: '', keyName: '', hasSecret: false, configured: false },
        choice: null,
      }),
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
    mount(<Settings send={send} />);
    await settle();
    container.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1]!.click();
    await settle();
    expect(container.querySelectorAll('[data-testid="threadwork-key"]')).toHaveLength(1);
    type(byTestId<HTMLInputElement>('threadwork-key-name')!, 'Zapier');
    const kind = byTestId<HTMLSelectElement>('threadwork-key-type')!;
    kind.value = 'legacy';
    kind.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    byTestId<HTMLButtonElement>('threadwork-key-create')!.click();
    await settle();
    expect(requests.find((request) => request.type === 'keys.create')).toMatchObject({
      key: { name: 'Zapier', type: 'legacy' },
    });
    expect(byTestId('threadwork-key-secret')!.textContent).toBe('shh-secret');
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
