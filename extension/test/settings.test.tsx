import { SCOPE_GROUPS } from '@threadwork/shared/light';
import { SCOPES } from '@threadwork/shared/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { Settings } from '../components/Settings.tsx';
import { ShortcutHint } from '../components/ShortcutHint.tsx';
import { ExtensionError } from '../lib/messaging.ts';
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

async function apiTab(send: Parameters<typeof Settings>[0]['send']) {
  view = mounted(<Settings send={send} />);
  await settle();
  view.container.querySelectorAll<HTMLButtonElement>('[role="tab"]')[1]!.click();
  await settle();
}

describe('the connection tab', () => {
  it('tests the values in the form, not the saved ones, and saves nothing', async () => {
    const { send, requests } = fakeSend(handlers({ 'settings.test': () => ME }));
    view = mounted(<Settings send={send} />);
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
    expect(requests.some((request) => request.type === 'me.get' || request.type === 'settings.save')).toBe(
      false,
    );
    expect(view.byTestId('threadwork-settings-whoami')!.textContent).toContain('New Person');
  });

  it('keeps what the user typed before the saved settings arrived', async () => {
    let answer: (value: { settings: typeof SAVED; choice: null }) => void = () => {};
    const { send } = fakeSend(
      handlers({ 'settings.get': () => new Promise((resolve) => (answer = resolve)) as never }),
    );
    view = mounted(<Settings send={send} />);
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
    view = mounted(<Settings send={send} />);
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
