import { groupScopes, OPT_IN_SCOPES, SCOPES } from '@threadwork/shared/light';
import type { ApiKey, CreatedApiKey } from '@threadwork/shared/schemas';
import { useEffect, useReducer, useRef } from 'preact/hooks';
import { ExtensionError, type Send } from '../../lib/messaging.ts';
import type { ResponseOf } from '../../lib/protocol.ts';
import { ErrorArea } from '../ErrorArea.tsx';

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

type KeyList = ResponseOf<'keys.list'>;

/** The API tab's whole state: one reducer, so every change of it is one named step. */
interface State {
  /** The keys as the service listed them; null until it answers, and once the extension signed out. */
  list: KeyList | null;
  name: string;
  type: 'v2' | 'legacy';
  chosen: readonly string[];
  busy: boolean;
  /** The key just created, with its secret (shown this once). */
  created: CreatedApiKey | null;
  copied: boolean;
  /** The key whose Revoke waits for its confirming second click. */
  confirming: string | null;
  signedOut: boolean;
  error: unknown;
}

type Action =
  | { type: 'listed'; list: KeyList }
  | { type: 'failed'; error: unknown }
  | { type: 'name'; name: string }
  | { type: 'type'; keyType: 'v2' | 'legacy' }
  | { type: 'scope'; scope: string; on: boolean }
  | { type: 'creating' }
  | { type: 'created'; key: CreatedApiKey }
  | { type: 'copied' }
  | { type: 'confirm'; id: string | null }
  | { type: 'revoked'; id: string }
  | { type: 'signedOut' };

const INITIAL: State = {
  list: null,
  name: '',
  // The extension (and Zapier) sign in with a key + secret: the kind a user of this tab most often needs.
  type: 'legacy',
  chosen: [],
  busy: false,
  created: null,
  copied: false,
  confirming: null,
  signedOut: false,
  error: null,
};

function reduce(state: State, action: Action): State {
  switch (action.type) {
    case 'listed':
      return { ...state, list: action.list };
    case 'failed':
      return { ...state, busy: false, error: action.error };
    case 'name':
      return { ...state, name: action.name };
    case 'type':
      return { ...state, type: action.keyType };
    case 'scope':
      return {
        ...state,
        chosen: action.on
          ? [...state.chosen, action.scope]
          : state.chosen.filter((scope) => scope !== action.scope),
      };
    case 'creating':
      return { ...state, busy: true, error: null, created: null, copied: false };
    case 'created':
      return { ...state, busy: false, created: action.key, name: '' };
    case 'copied':
      return { ...state, copied: true };
    case 'confirm':
      return { ...state, confirming: action.id, error: action.id === null ? state.error : null };
    case 'revoked':
      return {
        ...state,
        confirming: null,
        created: state.created?.id === action.id ? null : state.created,
      };
    case 'signedOut':
      // The extension's own key is gone: nothing more can be listed until another key is entered.
      return { ...state, confirming: null, created: null, list: null, signedOut: true };
  }
}

export function ApiKeys({ send }: { send: Send }) {
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const secretBox = useRef<HTMLDivElement>(null);

  const load = () =>
    send({ type: 'keys.list' }).then(
      (list) => dispatch({ type: 'listed', list }),
      (error: unknown) => dispatch({ type: 'failed', error }),
    );

  useEffect(() => {
    void load();
  }, []);

  // The secret is shown once: it takes the keyboard and comes into view, never below the fold.
  useEffect(() => {
    if (state.created === null) return;
    secretBox.current?.focus();
    secretBox.current?.scrollIntoView({ block: 'nearest' });
  }, [state.created]);

  const create = async () => {
    dispatch({ type: 'creating' });
    try {
      const key = await send({
        type: 'keys.create',
        key: {
          name: state.name,
          type: state.type,
          ...(state.chosen.length > 0 ? { scopes: [...state.chosen] as never } : {}),
        },
      });
      dispatch({ type: 'created', key });
      await load();
    } catch (failure) {
      dispatch({ type: 'failed', error: grantRefusal(failure) ?? failure });
    }
  };

  const revoke = async (id: string) => {
    if (state.confirming !== id) {
      dispatch({ type: 'confirm', id });
      return;
    }
    try {
      const { signed_out } = await send({ type: 'keys.revoke', key_id: id });
      if (signed_out) {
        dispatch({ type: 'signedOut' });
        return;
      }
      dispatch({ type: 'revoked', id });
      await load();
    } catch (failure) {
      dispatch({ type: 'confirm', id: null });
      dispatch({ type: 'failed', error: failure });
    }
  };

  if (state.signedOut) {
    return (
      <div class="tw-form">
        <div class="tw-ok" role="status" data-testid="threadwork-signed-out">
          The key was revoked and Threadwork is signed out. Enter another key + secret in the Connection tab.
        </div>
      </div>
    );
  }

  const { list, created } = state;
  const secret = created?.secret ?? created?.api_secret;
  const optIn: readonly string[] = OPT_IN_SCOPES;

  // The form comes first, whole from the start (the scopes are the extension's own list): the keys, listed
  // once the service answers, grow below it, so nothing the user is about to click moves under the pointer.
  return (
    <div class="tw-form">
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
            value={state.name}
            required
            onInput={(event) => dispatch({ type: 'name', name: event.currentTarget.value })}
          />
        </label>
        <label>
          Type
          <select
            data-testid="threadwork-key-type"
            value={state.type}
            onChange={(event) =>
              dispatch({ type: 'type', keyType: event.currentTarget.value === 'v2' ? 'v2' : 'legacy' })
            }
          >
            <option value="legacy">{KEY_TYPE_LABELS.legacy}</option>
            <option value="v2">{KEY_TYPE_LABELS.v2}</option>
          </select>
        </label>
        <fieldset class="tw-scopes">
          <legend>Scopes: none chosen gives every scope except the opt-in ones</legend>
          {groupScopes(SCOPES).map((group) => (
            <fieldset key={group.name} class="tw-scope-group">
              <legend>{group.name}</legend>
              {group.scopes.map(({ scope, label }) => (
                <label key={scope} class="tw-check">
                  <input
                    type="checkbox"
                    value={scope}
                    checked={state.chosen.includes(scope)}
                    onChange={(event) => dispatch({ type: 'scope', scope, on: event.currentTarget.checked })}
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
          // Busy keeps the button focusable (aria-disabled): the keyboard never drops to the page.
          disabled={state.name.trim() === ''}
          aria-disabled={state.busy}
        >
          {state.busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {created !== null && secret !== undefined && (
        <div class="tw-ok" role="status" tabIndex={-1} ref={secretBox} data-testid="threadwork-key-created">
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
                () => dispatch({ type: 'copied' }),
                () =>
                  dispatch({
                    type: 'failed',
                    error: new Error('The browser refused the clipboard: select the secret and copy it.'),
                  }),
              )
            }
          >
            {state.copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      <section class="tw-section" aria-labelledby="tw-keys-heading">
        <h3 id="tw-keys-heading">Your keys</h3>
        <ul class="tw-keys" data-testid="threadwork-keys">
          {list === null && state.error === null && <li class="tw-muted">Loading…</li>}
          {list?.keys.length === 0 && <li class="tw-muted">No keys yet.</li>}
          {(list?.keys ?? []).map((key) => (
            <KeyItem
              key={key.id}
              apiKey={key}
              self={key.id === list?.self_id}
              asking={state.confirming === key.id}
              scopes={scopeSummary(key.scopes, SCOPES, optIn)}
              onRevoke={() => void revoke(key.id)}
              onCancel={() => dispatch({ type: 'confirm', id: null })}
            />
          ))}
        </ul>
      </section>
      <ErrorArea error={state.error} testId="threadwork-settings-error" />
    </div>
  );
}

function KeyItem({
  apiKey: key,
  self,
  asking,
  scopes,
  onRevoke,
  onCancel,
}: {
  apiKey: ApiKey;
  self: boolean;
  asking: boolean;
  scopes: string;
  onRevoke: () => void;
  onCancel: () => void;
}) {
  return (
    <li data-testid="threadwork-key" data-key-id={key.id}>
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
            onClick={onRevoke}
          >
            {asking ? (self ? 'Revoke and sign out' : 'Confirm revoke') : 'Revoke'}
          </button>
          {asking && (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          )}
        </span>
      </div>
      <div class="tw-muted tw-key-scopes">{scopes}</div>
      {asking && self && (
        <p class="tw-warning" role="alert" data-testid="threadwork-key-self-warning">
          This is the key Threadwork signs in with. Revoking it signs the extension out: it stops working
          until you enter another key + secret in the Connection tab.
        </p>
      )}
    </li>
  );
}
