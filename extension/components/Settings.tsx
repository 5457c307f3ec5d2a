import { groupScopes } from '@threadwork/shared/light';
import type { ApiKey, CreatedApiKey, Me } from '@threadwork/shared/schemas';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import type { SettingsView } from '../lib/protocol.ts';
import { ErrorArea } from './ErrorArea.tsx';
import { ShortcutInfo } from './ShortcutHint.tsx';

export interface SettingsProps {
  send: Send;
  /**
   * Asks the browser for access to the service's origin. The options page passes one (the request needs the
   * user's click there); inside the mailbox there is none, and the background reports a missing permission.
   */
  requestHostPermission?: ((origin: string) => Promise<boolean>) | undefined;
  /** Told after each save (the options page hides its first-run welcome once the extension is set up). */
  onSaved?: ((settings: SettingsView) => void) | undefined;
}

interface Form {
  origin: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  keyName: string;
}

const EMPTY: Form = { origin: '', email: '', apiKey: '', apiSecret: '', keyName: '' };

/** The settings, in the options page and in the mailbox panel alike: connection, and the API tab. */
export function Settings({ send, requestHostPermission, onSaved }: SettingsProps) {
  const [tab, setTab] = useState<'connection' | 'api'>('connection');
  return (
    <div class="tw-settings">
      <div class="tw-tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'connection'}
          onClick={() => setTab('connection')}
        >
          Connection
        </button>
        <button type="button" role="tab" aria-selected={tab === 'api'} onClick={() => setTab('api')}>
          API keys
        </button>
      </div>
      <div role="tabpanel" aria-label={tab === 'connection' ? 'Connection' : 'API keys'}>
        {tab === 'connection' ? (
          <Connection send={send} requestHostPermission={requestHostPermission} onSaved={onSaved} />
        ) : (
          <ApiKeys send={send} />
        )}
      </div>
    </div>
  );
}

function Connection({ send, requestHostPermission, onSaved }: SettingsProps) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [view, setView] = useState<SettingsView | null>(null);
  const [saved, setSaved] = useState(false);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  // Fields the user has typed in: the saved values, when they arrive, fill only the others.
  const edited = useRef(new Set<keyof Form>());

  useEffect(() => {
    send({ type: 'settings.get' }).then(({ settings }) => {
      setView(settings);
      const stored: Form = {
        origin: settings.origin,
        email: settings.email,
        apiKey: settings.apiKey,
        apiSecret: '',
        keyName: settings.keyName,
      };
      setForm((typed) => {
        const next = { ...stored };
        for (const name of edited.current) next[name] = typed[name];
        return next;
      });
    }, setError);
  }, []);

  const field = (name: keyof Form) => ({
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => {
      // Read now: the updater runs after the event, when `currentTarget` is gone.
      const value = event.currentTarget.value;
      edited.current.add(name);
      setSaved(false);
      setForm((previous) => ({ ...previous, [name]: value }));
    },
  });

  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    setMe(null);
    try {
      await allowOrigin();
      const next = await send({ type: 'settings.save', settings: form });
      setView(next);
      setForm((previous) => ({ ...previous, origin: next.origin, apiSecret: '' }));
      setSaved(true);
      onSaved?.(next);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  /** Grants the form's origin where the page can ask (the options page, on this click). */
  const allowOrigin = async () => {
    const origin = form.origin.trim();
    if (requestHostPermission === undefined || !URL.canParse(origin)) return;
    if (!(await requestHostPermission(origin)))
      throw new Error(`Access to ${new URL(origin).origin} was not allowed, so Threadwork cannot reach it.`);
  };

  // The values in the form, saved or not: what the user sees is what is tested.
  const test = async () => {
    setBusy(true);
    setError(null);
    setMe(null);
    try {
      await allowOrigin();
      setMe(await send({ type: 'settings.test', settings: form }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="tw-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label>
        Service URL
        <input
          data-testid="threadwork-settings-origin"
          type="url"
          placeholder="https://app.example.com"
          {...field('origin')}
        />
      </label>
      <label>
        Email
        <input
          data-testid="threadwork-settings-email"
          type="email"
          autocomplete="username"
          {...field('email')}
        />
      </label>
      <label>
        API key
        <input data-testid="threadwork-settings-api-key" autocomplete="off" {...field('apiKey')} />
      </label>
      <label>
        API secret
        <input
          data-testid="threadwork-settings-api-secret"
          type="password"
          autocomplete="off"
          placeholder={view?.hasSecret ? 'Saved (leave empty to keep it)' : ''}
          {...field('apiSecret')}
        />
      </label>
      <label>
        Key name
        <input data-testid="threadwork-settings-key-name" autocomplete="off" {...field('keyName')} />
      </label>
      <div class="tw-buttons">
        <button type="submit" class="tw-primary" data-testid="threadwork-settings-save" disabled={busy}>
          Save
        </button>
        <button
          type="button"
          data-testid="threadwork-settings-test"
          disabled={busy}
          onClick={() => void test()}
        >
          Test connection
        </button>
      </div>
      {saved && (
        <div class="tw-ok" role="status" data-testid="threadwork-settings-saved">
          Saved.
        </div>
      )}
      {me !== null && (
        <div class="tw-ok" role="status" data-testid="threadwork-settings-whoami">
          Connected as <strong>{me.display_name ?? me.user_id}</strong>
          {me.email !== null && ` <${me.email}>`}
        </div>
      )}
      <ErrorArea error={error} testId="threadwork-settings-error" />
      <ShortcutInfo send={send} />
    </form>
  );
}

/**
 * A new key may hold only scopes the extension's own key holds: the service's 403 `insufficient_scope` on
 * creating one means that, not a missing permission of the user (the generic advice would send them here).
 */
function grantRefusal(failure: unknown): ExtensionError | undefined {
  if (!(failure instanceof ExtensionError) || failure.kind !== 'scope') return undefined;
  return new ExtensionError({
    kind: 'invalid',
    message: `${failure.message}. The key Threadwork signs in with does not hold that scope, so it cannot give it to a new key: leave it out, or create this key in the service's own API keys page.`,
  });
}

/** A key's scopes in a line: "every default scope" when it has exactly those, else their names. */
function scopeSummary(held: readonly string[], offered: readonly string[], optIn: readonly string[]): string {
  const defaults = offered.filter((scope) => !optIn.includes(scope));
  const isDefault = held.length === defaults.length && defaults.every((scope) => held.includes(scope));
  if (isDefault) return 'Scopes: every default scope';
  if (held.length === 0) return 'Scopes: none';
  return `Scopes: ${held.join(', ')}`;
}

/** Names each key type for what uses it: the extension and Zapier sign in with a key + secret. */
const KEY_TYPE_LABELS = {
  legacy: 'Key + secret, for this extension and Zapier',
  v2: 'v2 key, for scripts calling the v2 API',
} as const;

function ApiKeys({ send }: { send: Send }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [scopes, setScopes] = useState<string[]>([]);
  const [optIn, setOptIn] = useState<string[]>([]);
  const [selfId, setSelfId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [name, setName] = useState('');
  // The extension (and Zapier) sign in with a key + secret: the kind a user of this tab most often needs.
  const [type, setType] = useState<'v2' | 'legacy'>('legacy');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    send({ type: 'keys.list' }).then((found) => {
      setKeys(found.keys);
      setScopes(found.scopes);
      setOptIn(found.opt_in);
      setSelfId(found.self_id);
    }, setError);

  useEffect(() => {
    void load();
  }, []);

  const create = async () => {
    setBusy(true);
    setError(null);
    setCreated(null);
    setCopied(false);
    try {
      const key = await send({
        type: 'keys.create',
        key: { name, type, ...(chosen.size > 0 ? { scopes: [...chosen] as never } : {}) },
      });
      setCreated(key);
      setName('');
      await load();
    } catch (failure) {
      setError(grantRefusal(failure) ?? failure);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string) => {
    if (confirming !== id) {
      setConfirming(id);
      return;
    }
    setConfirming(null);
    setError(null);
    try {
      const { signed_out } = await send({ type: 'keys.revoke', key_id: id });
      if (created?.id === id) setCreated(null);
      if (signed_out) {
        // The extension's own key is gone: nothing more can be listed until another key is entered.
        setSignedOut(true);
        setKeys(null);
        return;
      }
      await load();
    } catch (failure) {
      setError(failure);
    }
  };

  const secret = created?.secret ?? created?.api_secret;

  if (signedOut) {
    return (
      <div class="tw-form">
        <div class="tw-ok" role="status" data-testid="threadwork-signed-out">
          The key was revoked and Threadwork is signed out. Enter another key + secret in the Connection tab.
        </div>
      </div>
    );
  }

  return (
    <div class="tw-form">
      <ul class="tw-keys" data-testid="threadwork-keys" aria-label="Your API keys">
        {keys === null && <li class="tw-muted">Loading…</li>}
        {keys?.length === 0 && <li class="tw-muted">No keys yet.</li>}
        {(keys ?? []).map((key) => {
          const self = key.id === selfId;
          const asking = confirming === key.id;
          return (
            <li key={key.id} data-testid="threadwork-key" data-key-id={key.id}>
              <div class="tw-key-line">
                <span class="tw-key-name">
                  <strong>{key.name}</strong>{' '}
                  <span class="tw-muted">({key.type === 'legacy' ? 'key + secret' : 'v2'})</span>
                  {key.api_key != null && <code> {key.api_key}</code>}
                  {self && (
                    <span class="tw-badge" data-testid="threadwork-key-self">
                      Used by this extension
                    </span>
                  )}
                </span>
                <span class="tw-actions">
                  <button
                    type="button"
                    class={asking ? 'tw-danger' : ''}
                    data-testid="threadwork-key-revoke"
                    aria-label={asking ? undefined : `Revoke ${key.name}`}
                    onClick={() => void revoke(key.id)}
                  >
                    {asking ? (self ? 'Revoke and sign out' : 'Confirm revoke') : 'Revoke'}
                  </button>
                  {asking && (
                    <button type="button" onClick={() => setConfirming(null)}>
                      Cancel
                    </button>
                  )}
                </span>
              </div>
              <div class="tw-muted tw-key-scopes">{scopeSummary(key.scopes, scopes, optIn)}</div>
              {asking && self && (
                <p class="tw-warning" role="alert" data-testid="threadwork-key-self-warning">
                  This is the key Threadwork signs in with. Revoking it signs the extension out: it stops
                  working until you enter another key + secret in the Connection tab.
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <form
        class="tw-form"
        aria-label="Create a key"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label>
          Name
          <input
            data-testid="threadwork-key-name"
            value={name}
            required
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <label>
          Type
          <select
            data-testid="threadwork-key-type"
            value={type}
            onChange={(event) => setType(event.currentTarget.value === 'v2' ? 'v2' : 'legacy')}
          >
            <option value="legacy">{KEY_TYPE_LABELS.legacy}</option>
            <option value="v2">{KEY_TYPE_LABELS.v2}</option>
          </select>
        </label>
        <fieldset class="tw-scopes">
          <legend>Scopes: none chosen gives every scope except the opt-in ones</legend>
          {groupScopes(scopes).map((group) => (
            <fieldset key={group.name} class="tw-scope-group">
              <legend>{group.name}</legend>
              {group.scopes.map(({ scope, label }) => (
                <label key={scope} class="tw-check">
                  <input
                    type="checkbox"
                    value={scope}
                    checked={chosen.has(scope)}
                    onChange={(event) => {
                      const next = new Set(chosen);
                      if (event.currentTarget.checked) next.add(scope);
                      else next.delete(scope);
                      setChosen(next);
                    }}
                  />
                  <span>
                    {label} <code class="tw-muted">{scope}</code>
                    {optIn.includes(scope) && (
                      <span class="tw-badge tw-optin" title="Only when chosen by name">
                        opt-in
                      </span>
                    )}
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
        </fieldset>
        <button
          type="submit"
          class="tw-primary"
          data-testid="threadwork-key-create"
          disabled={busy || name.trim() === ''}
        >
          Create key
        </button>
      </form>
      {created !== null && secret !== undefined && (
        <div class="tw-ok" role="status">
          <p>
            Copy the secret of <strong>{created.name}</strong> now: it is shown this once.
          </p>
          {created.api_key != null && (
            <p>
              API key: <code>{created.api_key}</code>
            </p>
          )}
          <code class="tw-secret" data-testid="threadwork-key-secret">
            {secret}
          </code>
          <button
            type="button"
            onClick={() =>
              navigator.clipboard.writeText(secret).then(
                () => setCopied(true),
                () =>
                  setError(new Error('The browser refused the clipboard: select the secret and copy it.')),
              )
            }
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <ErrorArea error={error} testId="threadwork-settings-error" />
    </div>
  );
}
