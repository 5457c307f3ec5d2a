// `/keys`: the user's API keys with their scopes; create (any scope: opt-in ones are marked and never
// preselected) and revoke, for both kinds. A new key's secret is shown once, here, and never again.
import { groupScopes } from '@threadwork/shared/light';
import type { ApiKey, ConsoleKeys, CreatedApiKey } from '@threadwork/shared/schemas';
import { useState } from 'preact/hooks';
import { call, fieldMessage, useAction, useResource } from '../api.ts';
import { Failure, Loading, Secret, Time, useTitle } from './common.tsx';

export function KeysPage() {
  useTitle('API keys');
  // A key's listing counts the subscriptions it holds: those change with it too.
  const view = useResource<ConsoleKeys>(
    'keys',
    (change) => change.topic === 'keys' || change.topic === 'subscription',
  );
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  return (
    <section>
      <div class="page-head">
        <h1>API keys</h1>
      </div>
      <NewKey catalogue={view.data} onCreated={view.reload} />
      <h2>Your keys</h2>
      {view.data.keys.length === 0 ? (
        <p class="muted">No keys.</p>
      ) : (
        <table class="keys stack">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.data.keys.map((key) => (
              <KeyRow key={key.id} apiKey={key} optIn={view.data!.opt_in_scopes} onRevoked={view.reload} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** How many subscriptions a key holds (they stop when it is revoked). */
function holds({ webhooks, hooks }: ApiKey['subscriptions']): string {
  if (webhooks + hooks === 0) return 'holds no subscription';
  const parts = [webhooks > 0 && plural(webhooks, 'webhook'), hooks > 0 && plural(hooks, 'v1 hook')].filter(
    Boolean,
  );
  return `holds ${parts.join(' and ')} (revoking stops them)`;
}

function KeyRow({ apiKey, optIn, onRevoked }: { apiKey: ApiKey; optIn: string[]; onRevoked(): void }) {
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useAction();
  async function revoke() {
    if (!confirming) return setConfirming(true);
    if (await run(() => call('DELETE', `keys/${encodeURIComponent(apiKey.id)}`))) onRevoked();
  }
  return (
    <tr data-testid="console-key" data-key-id={apiKey.id}>
      <th scope="row">
        {apiKey.name}
        {apiKey.api_key && (
          <div class="muted small">
            public API key <code>{apiKey.api_key}</code> (its secret was shown once)
          </div>
        )}
        <div class="muted small">{holds(apiKey.subscriptions)}</div>
      </th>
      <td data-label="Type">{apiKey.type}</td>
      <td class="scopes" data-label="Scopes">
        {apiKey.scopes.map((scope) => (
          <span class={`chip${optIn.includes(scope) ? ' opt-in' : ''}`}>{scope}</span>
        ))}
      </td>
      <td data-label="Created">
        <Time value={apiKey.created_at} />
      </td>
      <td>
        <button
          type="button"
          class={confirming ? 'danger' : ''}
          onClick={revoke}
          onBlur={() => setConfirming(false)}
        >
          {confirming ? `Confirm revoke${stopsText(apiKey.subscriptions)}` : 'Revoke'}
          <span class="visually-hidden"> {apiKey.name}</span>
        </button>
        {error && <Failure error={error} />}
      </td>
    </tr>
  );
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** The confirm button says what the revoke will stop, if anything. */
function stopsText({ webhooks, hooks }: ApiKey['subscriptions']): string {
  const stopped = [webhooks > 0 && plural(webhooks, 'webhook'), hooks > 0 && plural(hooks, 'hook')].filter(
    Boolean,
  );
  return stopped.length === 0 ? '' : ` (stops ${stopped.join(' and ')})`;
}

function NewKey({ catalogue, onCreated }: { catalogue: ConsoleKeys; onCreated(): void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'v2' | 'legacy'>('v2');
  const [scopes, setScopes] = useState<string[]>(catalogue.default_scopes);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const { busy, error, run } = useAction();
  // The server's reason about the name (its length rule) stands beside the name; the name stays typed.
  const nameError = fieldMessage(error, 'name');

  async function submit(event: Event) {
    event.preventDefault();
    const key = await run(() => call<CreatedApiKey>('POST', 'keys', { name: name.trim(), type, scopes }));
    if (!key) return;
    setCreated(key);
    setName('');
    onCreated();
  }

  const toggle = (scope: string) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );

  return (
    <form class="new-key" onSubmit={submit} aria-labelledby="new-key">
      <h2 id="new-key">Create a key</h2>
      <div class="form-row">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          required
          value={name}
          aria-invalid={nameError ? 'true' : undefined}
          aria-describedby={nameError ? 'key-name-error' : undefined}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        {nameError && (
          <span class="error field-error" id="key-name-error" role="alert">
            {nameError}
          </span>
        )}
      </div>
      <fieldset class="form-row">
        <legend>Type</legend>
        <label>
          <input type="radio" name="key-type" checked={type === 'v2'} onChange={() => setType('v2')} /> v2
          bearer key
        </label>
        <label>
          <input
            type="radio"
            name="key-type"
            checked={type === 'legacy'}
            onChange={() => setType('legacy')}
          />{' '}
          legacy key and secret (v1, the Zapier app, the extension)
        </label>
      </fieldset>
      {/* The same groups and labels as the extension's API tab (and the Zapier app's messages). */}
      {groupScopes(catalogue.scopes).map((group) => (
        <fieldset class="scope-grid" key={group.name}>
          <legend>{group.name}</legend>
          {group.scopes.map(({ scope, label }) => {
            const optIn = catalogue.opt_in_scopes.includes(scope);
            return (
              <label class={optIn ? 'opt-in' : ''} key={scope}>
                <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />{' '}
                {label} <code class="muted">{scope}</code>
                {optIn && <span class="chip opt-in">opt-in</span>}
              </label>
            );
          })}
        </fieldset>
      ))}
      <p class="muted small">Opt-in scopes are never granted by default: tick them to grant them.</p>
      <button type="submit" disabled={busy || name.trim() === '' || scopes.length === 0}>
        Create key
      </button>
      {error && !nameError && <Failure error={error} />}
      {created && (
        <div class="created" role="status">
          <p>Key “{created.name}” created. Copy its secret now: it is shown this once.</p>
          {created.api_key && <Secret id="created-key" label="API key" value={created.api_key} />}
          <Secret
            id="created-secret"
            label={created.type === 'legacy' ? 'API secret' : 'Secret'}
            value={created.secret ?? created.api_secret ?? ''}
          />
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
    </form>
  );
}
