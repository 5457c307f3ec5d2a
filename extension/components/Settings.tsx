import type { ApiKey, CreatedApiKey, Me } from '@threadwork/shared/schemas';
import { useEffect, useState } from 'preact/hooks';
import type { Send } from '../lib/messaging.ts';
import type { SettingsView } from '../lib/protocol.ts';
import { ErrorArea } from './ErrorArea.tsx';

export interface SettingsProps {
  send: Send;
  /**
   * Asks the browser for access to the service's origin. The options page passes one (the request needs the
   * user's click there); inside the mailbox there is none, and the background reports a missing permission.
   */
  requestHostPermission?: ((origin: string) => Promise<boolean>) | undefined;
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
export function Settings({ send, requestHostPermission }: SettingsProps) {
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
      {tab === 'connection' ? (
        <Connection send={send} requestHostPermission={requestHostPermission} />
      ) : (
        <ApiKeys send={send} />
      )}
    </div>
  );
}

function Connection({ send, requestHostPermission }: SettingsProps) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [view, setView] = useState<SettingsView | null>(null);
  const [saved, setSaved] = useState(false);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    send({ type: 'settings.get' }).then(({ settings }) => {
      setView(settings);
      setForm({
        origin: settings.origin,
        email: settings.email,
        apiKey: settings.apiKey,
        apiSecret: '',
        keyName: settings.keyName,
      });
    }, setError);
  }, []);

  const field = (name: keyof Form) => ({
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => {
      setSaved(false);
      setForm((previous) => ({ ...previous, [name]: event.currentTarget.value }));
    },
  });

  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    setMe(null);
    try {
      if (requestHostPermission !== undefined && URL.canParse(form.origin.trim())) {
        const granted = await requestHostPermission(form.origin.trim());
        if (!granted)
          throw new Error(`Access to ${form.origin.trim()} was not allowed, so Threadwork cannot reach it.`);
      }
      const next = await send({ type: 'settings.save', settings: form });
      setView(next);
      setForm((previous) => ({ ...previous, origin: next.origin, apiSecret: '' }));
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const test = async () => {
    setBusy(true);
    setError(null);
    setMe(null);
    try {
      setMe(await send({ type: 'me.get' }));
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
    </form>
  );
}

function ApiKeys({ send }: { send: Send }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [scopes, setScopes] = useState<string[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [name, setName] = useState('');
  const [type, setType] = useState<'v2' | 'legacy'>('v2');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    send({ type: 'keys.list' }).then(({ keys: found, scopes: all }) => {
      setKeys(found);
      setScopes(all);
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
        key: {
          name,
          type,
          ...(type === 'v2' && chosen.size > 0 ? { scopes: [...chosen] as never } : {}),
        },
      });
      setCreated(key);
      setName('');
      await load();
    } catch (failure) {
      setError(failure);
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
      await send({ type: 'keys.revoke', key_id: id });
      if (created?.id === id) setCreated(null);
      await load();
    } catch (failure) {
      setError(failure);
    }
  };

  const secret = created?.secret ?? created?.api_secret;

  return (
    <div class="tw-form">
      <ul class="tw-keys" data-testid="threadwork-keys">
        {keys === null && <li class="tw-muted">Loading…</li>}
        {keys?.length === 0 && <li class="tw-muted">No keys yet.</li>}
        {(keys ?? []).map((key) => (
          <li key={key.id} data-testid="threadwork-key" data-key-id={key.id}>
            <span>
              <strong>{key.name}</strong>{' '}
              <span class="tw-muted">({key.type === 'legacy' ? 'key + secret' : 'v2'})</span>
              {key.api_key != null && <code> {key.api_key}</code>}
            </span>
            <span class="tw-actions">
              <button
                type="button"
                class={confirming === key.id ? 'tw-danger' : ''}
                data-testid="threadwork-key-revoke"
                onClick={() => void revoke(key.id)}
              >
                {confirming === key.id ? 'Confirm revoke' : 'Revoke'}
              </button>
              {confirming === key.id && (
                <button type="button" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
              )}
            </span>
          </li>
        ))}
      </ul>
      <form
        class="tw-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div class="tw-row">
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
              onChange={(event) => setType(event.currentTarget.value === 'legacy' ? 'legacy' : 'v2')}
            >
              <option value="v2">v2 key (scoped)</option>
              <option value="legacy">Key + secret (legacy, for Zapier)</option>
            </select>
          </label>
        </div>
        {type === 'v2' && (
          <fieldset class="tw-scopes">
            <legend>Scopes (none chosen: every default scope)</legend>
            {scopes.map((scope) => (
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
                {scope}
              </label>
            ))}
          </fieldset>
        )}
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
