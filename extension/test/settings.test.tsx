import { SCOPE_GROUPS } from '@threadwork/shared/light';
import { SCOPES } from '@threadwork/shared/schemas';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShortcutHint } from '../components/ShortcutHint.tsx';
import { Settings } from '../components/settings/Settings.tsx';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import { SERVICE_URL_HELP } from '../lib/service-url.ts';
import type { Access, AccessAnswer } from '../lib/ui/access.ts';
import { choose, fakeSend, type Handlers, mounted, settle, type } from './helpers/ui.ts';

let view: ReturnType<typeof mounted>;
afterEach(() => view.unmount());

const SAVED = {
  origin: 'http://127.0.0.1:8787',
  email: 'ada@example.com',
  apiKey: 'savedkey',
  keyName: 'Browser',
  hasSecret: true,
  configured: true,
  signedOut: false,
};
const ME = { user_id: 'usr_new', email: 'new@example.com', display_name: 'New Person' } as never;
const KEYS = [
  {
    id: 'key_ext',
    type: 'legacy',
    name: 'Browser',
    scopes: [],
    api_key: 'savedkey',
    created_at: '2026-01-05T10:00:00.000Z',
  },
  {
    id: 'key_ci',
    type: 'v2',
    name: 'ci',
    scopes: ['email.send', 'tasks.read'],
    api_key: null,
    created_at: '2026-01-05T10:00:00.000Z',
  },
];

function handlers(overrides: Handlers = {}): Handlers {
  return {
    'settings.get': () => ({ settings: SAVED, choice: null }),
    'shortcut.get': () => ({ shortcut: 'Alt+Shift+K', where: 'chrome://extensions/shortcuts' }),
    'keys.list': () => ({
      keys: KEYS as never,
      scopes: [...SCOPES],
      opt_in: ['email.send', 'drafts.delete'],
      self_id: 'key_ext',
    }),
    ...overrides,
  };
}

/** What the service answers to a key creation: the key, with its secret shown once. */
const createdKey = (request: { key: { name: string; type?: string } }) =>
  ({
    id: 'key_new',
    type: request.key.type ?? 'v2',
    name: request.key.name,
    scopes: [],
    api_key: request.key.type === 'legacy' ? 'pub' : null,
    created_at: '2026-01-05T10:00:00.000Z',
    ...(request.key.type === 'legacy' ? { api_secret: 'shh' } : { secret: 's' }),
  }) as never;

/** The browser's access to the service: `answer` is what a request gets; every request is recorded. */
function fakeAccess(answer: AccessAnswer = 'granted') {
  const asked: string[] = [];
  const access: Access = {
    ask: vi.fn(async (origin: string) => {
      asked.push(origin);
      return answer;
    }),
    watch: () => () => {},
  };
  return { access, asked };
}

function settings(send: Send, access: Access = fakeAccess().access, extra: { focusGrant?: boolean } = {}) {
  view = mounted(<Settings send={send} access={access} inPanel {...extra} />);
}

async function apiTab(send: Send) {
  settings(send);
  await settle();
  view.container.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1]!.click();
  await settle();
}

describe('the connection tab', () => {
  it('tests the values in the form, not the saved ones, and saves nothing', async () => {
    // The saved settings sign in as someone else: what shows after the test is the form's own answer.
    const { send, requests } = fakeSend(
      handlers({
        'settings.test': () => ME,
        'me.get': () => ({ user_id: 'usr_saved', email: null, display_name: 'Saved Person' }) as never,
      }),
    );
    settings(send);
    await settle();
    type(view.byTestId<HTMLInputElement>('threadwork-settings-api-key')!, 'typedkey');
    type(view.byTestId<HTMLInputElement>('threadwork-settings-api-secret')!, 'typedsecret');
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-settings-test')!.click();
    await settle();
    expect(requests.filter((request) => request.type === 'settings.test')).toEqual([
      {
        type: 'settings.test',
        settings: {
          origin: SAVED.origin,
          email: SAVED.email,
          apiKey: 'typedkey',
          apiSecret: 'typedsecret',
          keyName: SAVED.keyName,
        },
      },
    ]);
    // Nothing saved; the one sign-in with the saved settings is the check made when the form opened.
    expect(requests.some((request) => request.type === 'settings.save')).toBe(false);
    expect(requests.filter((request) => request.type === 'me.get')).toHaveLength(1);
    expect(view.byTestId('threadwork-settings-whoami')!.textContent).toContain('New Person');
  });

  it('keeps what the user typed before the saved settings arrived', async () => {
    let answer: (value: { settings: typeof SAVED; choice: null }) => void = () => {};
    const { send } = fakeSend(
      handlers({ 'settings.get': () => new Promise((resolve) => (answer = resolve)) as never }),
    );
    settings(send);
    await settle();
    type(view.byTestId<HTMLInputElement>('threadwork-settings-origin')!, 'http://typed.test');
    await settle();
    answer({ settings: SAVED, choice: null });
    await settle();
    expect(view.byTestId<HTMLInputElement>('threadwork-settings-origin')!.value).toBe('http://typed.test');
    expect(view.byTestId<HTMLInputElement>('threadwork-settings-email')!.value).toBe(SAVED.email);
  });

  it('shows the shortcut the browser has, and where to set one when it is unset', async () => {
    const { send } = fakeSend(handlers());
    settings(send);
    await settle();
    expect(view.byTestId('threadwork-shortcut')!.textContent).toContain('Alt+Shift+K');
    view.unmount();

    const unset = fakeSend(
      handlers({
        'shortcut.get': () => ({ shortcut: null, where: 'chrome://extensions/shortcuts' }),
        'shortcut.configure': () => ({ opened: true }),
      }),
    );
    view = mounted(<ShortcutHint send={unset.send} />);
    await settle();
    const hint = view.byTestId('threadwork-shortcut')!;
    expect(hint.dataset['shortcut']).toBe('');
    expect(hint.textContent).toContain('No keyboard shortcut is set');
    expect(hint.textContent).toContain('chrome://extensions/shortcuts');
    hint.querySelector('button')!.click();
    await settle();
    expect(unset.requests.map((request) => request.type)).toContain('shortcut.configure');
  });
});

describe('saving the connection', () => {
  const fill = (values: Record<string, string>) => {
    for (const [id, value] of Object.entries(values))
      type(view.byTestId<HTMLInputElement>(`threadwork-settings-${id}`)!, value);
  };
  const blank = {
    ...SAVED,
    origin: '',
    email: '',
    apiKey: '',
    keyName: '',
    hasSecret: false,
    configured: false,
  };

  it('says under each field what it wants, in plain words, and sends nothing', async () => {
    const { send, requests } = fakeSend(
      handlers({ 'settings.get': () => ({ settings: blank, choice: null }) }),
    );
    const { access } = fakeAccess();
    settings(send, access);
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-settings-save')!.click();
    await settle();
    const problems = Object.fromEntries(
      [...view.container.querySelectorAll<HTMLElement>('[data-testid="threadwork-settings-problem"]')].map(
        (problem) => [problem.dataset['field'], problem.textContent],
      ),
    );
    expect(problems).toEqual({
      origin: SERVICE_URL_HELP,
      email: 'Enter the email you sign in to the service with.',
      apiKey: 'Enter the API key of a key + secret.',
      keyName: 'Enter the name the key has in the service.',
    });
    expect(view.container.textContent).not.toMatch(/settings\.|is required|Invalid/);
    expect(document.activeElement).toBe(view.byTestId('threadwork-settings-origin'));
    expect(view.byTestId('threadwork-settings-origin')!.getAttribute('aria-invalid')).toBe('true');
    expect(access.ask).not.toHaveBeenCalled();
    expect(requests.some((request) => request.type === 'settings.save')).toBe(false);
  });

  it('asks for access on the click itself, saves, and says who the service says you are', async () => {
    const { send, requests } = fakeSend(
      handlers({
        'settings.get': () => ({ settings: blank, choice: null }),
        'settings.save': (request) => ({
          ...SAVED,
          origin: 'https://app.example.com',
          email: request.settings.email,
        }),
        'me.get': () => ME,
      }),
    );
    const { access, asked } = fakeAccess();
    settings(send, access);
    await settle();
    fill({
      origin: 'app.example.com',
      email: 'ada@example.com',
      'api-key': 'k',
      'api-secret': 's',
      'key-name': 'Browser',
    });
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-settings-save')!.click();
    // Within the click: the browser asks only then (a later call would have lost the user's gesture).
    expect(asked).toEqual(['https://app.example.com']);
    await settle();
    expect(requests.find((request) => request.type === 'settings.save')).toMatchObject({
      settings: { origin: 'app.example.com' },
    });
    expect(view.byTestId<HTMLInputElement>('threadwork-settings-origin')!.value).toBe(
      'https://app.example.com',
    );
    expect(view.byTestId('threadwork-settings-saved')!.textContent).toBe('Saved.');
    expect(view.byTestId('threadwork-settings-whoami')!.textContent).toContain('New Person');
  });

  it('saves credentials that fail and says so, not only "Saved."', async () => {
    const { send } = fakeSend(
      handlers({
        'settings.save': () => SAVED,
        'me.get': () => {
          throw new ExtensionError({
            kind: 'bad_credentials',
            code: 'unauthenticated',
            message: 'the API secret does not match',
          });
        },
      }),
    );
    settings(send);
    await settle();
    fill({ 'api-secret': 'wrong' });
    view.byTestId<HTMLButtonElement>('threadwork-settings-save')!.click();
    await settle();
    expect(view.byTestId('threadwork-settings-saved')).not.toBeNull();
    expect(view.byTestId('threadwork-settings-error')!.dataset['kind']).toBe('bad_credentials');
    expect(view.byTestId('threadwork-settings-whoami')).toBeNull();
  });

  it('opened again, says whether the saved settings still connect', async () => {
    const { send } = fakeSend(handlers({ 'me.get': () => ME }));
    settings(send);
    await settle();
    expect(view.byTestId('threadwork-settings-whoami')!.textContent).toContain('New Person');
    expect(view.byTestId('threadwork-settings-saved')).toBeNull();
  });

  it('without access, offers to allow it; a browser that refuses to ask from the panel sends the user to the settings page, once', async () => {
    const { send, requests } = fakeSend(
      handlers({
        'me.get': () => {
          throw new ExtensionError({
            kind: 'permission',
            message: 'Threadwork may not reach 127.0.0.1:8787 yet.',
          });
        },
        'options.open': () => ({ opened: true }),
        'access.has': () => ({ granted: false }),
      }),
    );
    const { access, asked } = fakeAccess('refused');
    settings(send, access, { focusGrant: true });
    await settle();
    const grant = view.byTestId<HTMLButtonElement>('threadwork-settings-grant')!;
    expect(grant.textContent).toBe('Allow access to 127.0.0.1:8787');
    expect(document.activeElement).toBe(grant);
    // Said once, by the notice: never "open the settings and save them" from inside the settings.
    expect(view.byTestId('threadwork-settings-error')).toBeNull();
    grant.click();
    expect(asked).toEqual(['http://127.0.0.1:8787']);
    await settle();
    expect(requests.filter((request) => request.type === 'options.open')).toEqual([
      { type: 'options.open', grant: true },
    ]);
    expect(view.byTestId('threadwork-grant-status')!.dataset['state']).toBe('elsewhere');
    expect(view.byTestId('threadwork-grant-status')!.textContent).toContain('in the tab that just opened');
  });

  it('does not send the user away to allow what is allowed already', async () => {
    const { send, requests } = fakeSend(
      handlers({
        'settings.save': () => SAVED,
        'me.get': () => ME,
        'access.has': () => ({ granted: true }),
        'options.open': () => ({ opened: true }),
      }),
    );
    settings(send, fakeAccess('refused').access);
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-settings-save')!.click();
    await settle();
    expect(requests.some((request) => request.type === 'options.open')).toBe(false);
    expect(view.byTestId('threadwork-settings-whoami')!.textContent).toContain('New Person');
  });
});

describe('the API tab', () => {
  it('creates a key + secret by default, named for the extension and Zapier', async () => {
    const { send, requests } = fakeSend(handlers({ 'keys.create': createdKey }));
    await apiTab(send);
    const kind = view.byTestId<HTMLSelectElement>('threadwork-key-type')!;
    expect(kind.value).toBe('legacy');
    expect(kind.selectedOptions[0]!.textContent).toMatch(/this extension and Zapier/);
    type(view.byTestId<HTMLInputElement>('threadwork-key-name')!, 'Zapier');
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-key-create')!.click();
    await settle();
    expect(requests.find((request) => request.type === 'keys.create')).toEqual({
      type: 'keys.create',
      key: { name: 'Zapier', type: 'legacy' },
    });
  });

  it('offers the scopes in readable groups, opt-in ones marked, and sends the chosen ones for either type', async () => {
    const { send, requests } = fakeSend(handlers({ 'keys.create': createdKey }));
    await apiTab(send);
    const groups = [...view.container.querySelectorAll('.tw-scope-group > legend')].map(
      (legend) => legend.textContent,
    );
    expect(groups).toEqual(SCOPE_GROUPS.map((group) => group.name));
    const label = (scope: string) =>
      view.container.querySelector(`input[value="${scope}"]`)!.closest('label')!.textContent;
    expect(label('tasks.write')).toContain('Create and change tasks');
    expect(label('email.send')).toContain('opt-in');
    expect(label('drafts.delete')).toContain('opt-in');
    expect(label('email.reply')).not.toContain('opt-in');

    type(view.byTestId<HTMLInputElement>('threadwork-key-name')!, 'Sender');
    view.container.querySelector<HTMLInputElement>('input[value="email.send"]')!.click();
    choose(view.byTestId<HTMLSelectElement>('threadwork-key-type')!, 'v2');
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-key-create')!.click();
    await settle();
    expect(requests.find((request) => request.type === 'keys.create')).toEqual({
      type: 'keys.create',
      key: { name: 'Sender', type: 'v2', scopes: ['email.send'] },
    });
  });

  it('explains a scope the extension itself lacks, instead of sending the user back to this tab', async () => {
    const { send } = fakeSend(
      handlers({
        'keys.create': () => {
          throw new ExtensionError({
            kind: 'scope',
            code: 'insufficient_scope',
            message: 'cannot grant the scope email.send: the credentials used do not hold it',
          });
        },
      }),
    );
    await apiTab(send);
    type(view.byTestId<HTMLInputElement>('threadwork-key-name')!, 'Sender');
    view.container.querySelector<HTMLInputElement>('input[value="email.send"]')!.click();
    await settle();
    view.byTestId<HTMLButtonElement>('threadwork-key-create')!.click();
    await settle();
    const error = view.byTestId('threadwork-settings-error')!;
    expect(error.textContent).toContain('cannot grant the scope email.send');
    expect(error.textContent).toContain('does not hold that scope');
    expect(error.textContent).not.toContain('Create a key with that scope in the API tab');
  });

  it('marks the key the extension uses, and revokes it only after a warning that the extension signs out', async () => {
    const { send, requests } = fakeSend(
      handlers({ 'keys.revoke': (request) => ({ id: request.key_id, signed_out: true }) }),
    );
    await apiTab(send);
    const self = view.container.querySelector('[data-testid="threadwork-key"][data-key-id="key_ext"]')!;
    expect(self.querySelector('[data-testid="threadwork-key-self"]')).not.toBeNull();
    expect(view.container.querySelectorAll('[data-testid="threadwork-key-self"]')).toHaveLength(1);
    // Each key says what it may do.
    const ci = view.container.querySelector('[data-key-id="key_ci"]')!;
    expect(ci.textContent).toContain('Scopes: email.send, tasks.read');

    const revoke = self.querySelector<HTMLButtonElement>('[data-testid="threadwork-key-revoke"]')!;
    revoke.click();
    await settle();
    expect(requests.some((request) => request.type === 'keys.revoke')).toBe(false);
    expect(self.textContent).toMatch(/signs the extension out/);
    expect(revoke.textContent).toBe('Revoke and sign out');
    revoke.click();
    await settle();
    expect(requests.filter((request) => request.type === 'keys.revoke')).toEqual([
      { type: 'keys.revoke', key_id: 'key_ext' },
    ]);
    expect(view.byTestId('threadwork-signed-out')!.textContent).toMatch(/signed out/);
  });

  it('groups every scope of the service', () => {
    const grouped = SCOPE_GROUPS.flatMap((group) => group.scopes.map(({ scope }) => scope));
    expect([...grouped].sort()).toEqual([...SCOPES].sort());
  });
});
