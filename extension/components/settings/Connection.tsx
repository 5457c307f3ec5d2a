import type { Me } from '@threadwork/shared/schemas';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorKind } from '../../lib/messaging.ts';
import { SettingsInput, type SettingsView } from '../../lib/protocol.ts';
import { serviceOrigin } from '../../lib/service-url.ts';
import { ErrorArea } from '../ErrorArea.tsx';
import { GrantStatus, useGrant } from '../Grant.tsx';
import { ShortcutInfo } from '../ShortcutHint.tsx';
import type { SettingsProps } from './Settings.tsx';

interface Form {
  origin: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  keyName: string;
}

const EMPTY: Form = { origin: '', email: '', apiKey: '', apiSecret: '', keyName: '' };

/** Each field's label, in the order the form shows them. */
const FIELDS: { name: keyof Form; label: string; testId: string; input: Record<string, string> }[] = [
  {
    name: 'origin',
    label: 'Service URL',
    testId: 'threadwork-settings-origin',
    input: { type: 'url', placeholder: 'https://app.example.com' },
  },
  {
    name: 'email',
    label: 'Email',
    testId: 'threadwork-settings-email',
    input: { type: 'email', autocomplete: 'username' },
  },
  { name: 'apiKey', label: 'API key', testId: 'threadwork-settings-api-key', input: { autocomplete: 'off' } },
  {
    name: 'apiSecret',
    label: 'API secret',
    testId: 'threadwork-settings-api-secret',
    input: { type: 'password', autocomplete: 'off' },
  },
  {
    name: 'keyName',
    label: 'Key name',
    testId: 'threadwork-settings-key-name',
    input: { autocomplete: 'off' },
  },
];

/**
 * Where the last check, Save or Test stands: working, or done: whether the form was saved, and who the
 * service says we are or why not.
 */
type Outcome =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; saved: boolean; me: Me | null; error: unknown };

/**
 * The connection form. Save stores the form, asks the browser for access to the service (on this click) and
 * signs in, saying who the service says you are or why not; Test connection signs in with the form as it is,
 * saved or not, storing nothing. Opened again, it says whether the saved settings still connect.
 */
export function Connection({ send, access, inPanel, focusGrant, onSaved }: SettingsProps) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [view, setView] = useState<SettingsView | null>(null);
  const [problems, setProblems] = useState<Partial<Record<keyof Form, string>>>({});
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  /** Whether the extension may reach the saved service (null: not known yet, or nothing saved). */
  const [reachable, setReachable] = useState<boolean | null>(null);
  const reachableRef = useRef(reachable);
  reachableRef.current = reachable;
  const grant = useGrant(access, send, inPanel);
  // Fields the user has typed in: the saved values, when they arrive, fill only the others.
  const edited = useRef(new Set<keyof Form>());
  const inputs = useRef<Partial<Record<keyof Form, HTMLInputElement | null>>>({});
  const grantButton = useRef<HTMLButtonElement>(null);

  /** Whether the saved settings connect: who the service says we are, or why not (no access, refused, …). */
  const check = async (saved: SettingsView) => {
    if (!saved.configured) return;
    const answer = await send({ type: 'me.get' }).then(
      (me) => ({ me, error: null }),
      (error: unknown) => ({ me: null, error }),
    );
    const noAccess = errorKind(answer.error) === 'permission';
    setReachable(!noAccess);
    if (noAccess) return;
    // No access is said once, by the "Allow access" notice above the form; with access, what we asked for is done.
    grant.clear();
    setOutcome((current) =>
      current.kind === 'busy'
        ? current
        : { kind: 'done', saved: current.kind === 'done' && current.saved, ...answer },
    );
  };

  useEffect(() => {
    send({ type: 'settings.get' }).then(
      ({ settings }) => {
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
        void check(settings);
      },
      (error: unknown) => setOutcome({ kind: 'done', saved: false, me: null, error }),
    );
    // Access granted in another page (the settings tab the panel opened): this form picks it up.
    return access.watch(() => {
      send({ type: 'settings.get' }).then(
        ({ settings }) => void check(settings),
        () => {},
      );
    });
  }, []);

  // Sent here from the panel to allow access: the button that asks has the keyboard.
  useEffect(() => {
    if (focusGrant && reachable === false) grantButton.current?.focus();
  }, [focusGrant, reachable]);

  const field = (name: keyof Form) => ({
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => {
      // Read now: the updater runs after the event, when `currentTarget` is gone.
      const value = event.currentTarget.value;
      edited.current.add(name);
      setProblems((current) => ({ ...current, [name]: undefined }));
      setForm((previous) => ({ ...previous, [name]: value }));
    },
  });

  /** The form's origin when every field reads well; else each problem under its field, and null. */
  const checkForm = (): string | null => {
    const parsed = SettingsInput.safeParse(form);
    const origin = serviceOrigin(form.origin);
    if (parsed.success && origin !== null) {
      setProblems({});
      return origin;
    }
    const found: Partial<Record<keyof Form, string>> = {};
    for (const issue of parsed.error?.issues ?? []) {
      const name = issue.path[0] as keyof Form;
      found[name] ??= issue.message;
    }
    setProblems(found);
    const first = FIELDS.find(({ name }) => found[name] !== undefined);
    if (first !== undefined) inputs.current[first.name]?.focus();
    return null;
  };

  /** Signs in with what was saved (or the form, for a test) once the browser allows access; null: never allowed. */
  const signIn = async (allowed: Promise<string>, test: boolean) => {
    if ((await allowed) !== 'granted') return null;
    setReachable(true);
    return (test ? send({ type: 'settings.test', settings: form }) : send({ type: 'me.get' })).then(
      (me) => ({ me, error: null }),
      (error: unknown) => ({ me: null, error }),
    );
  };

  // Both run from the click itself: the browser asks for access only on a user's click.
  const save = (event: Event) => {
    event.preventDefault();
    const origin = checkForm();
    if (origin === null) return;
    const allowed = grant.ask(origin);
    setOutcome({ kind: 'busy' });
    void (async () => {
      try {
        const next = await send({ type: 'settings.save', settings: form });
        setView(next);
        setForm((previous) => ({ ...previous, origin: next.origin, apiSecret: '' }));
        edited.current.clear();
        onSaved?.(next);
        setOutcome({ kind: 'done', saved: true, me: null, error: null });
      } catch (error) {
        setOutcome({ kind: 'done', saved: false, me: null, error });
        return;
      }
      const answer = await signIn(allowed, false);
      if (answer !== null) setOutcome({ kind: 'done', saved: true, ...answer });
    })();
  };

  const test = () => {
    const origin = checkForm();
    if (origin === null) return;
    const allowed = grant.ask(origin);
    setOutcome({ kind: 'busy' });
    void signIn(allowed, true).then((answer) =>
      setOutcome(answer === null ? { kind: 'idle' } : { kind: 'done', saved: false, ...answer }),
    );
  };

  const askAgain = () => {
    if (view?.configured) void grant.ask(view.origin).then(() => check(view));
  };

  const savedHost = view?.configured ? new URL(view.origin).host : '';
  const typedOrigin = serviceOrigin(form.origin);
  const busy = outcome.kind === 'busy';
  const me = outcome.kind === 'done' ? outcome.me : null;
  const error = outcome.kind === 'done' ? outcome.error : null;

  return (
    <form class="tw-form" noValidate onSubmit={save}>
      {reachable === false && grant.state !== 'waiting' && (
        <div class="tw-warning" data-testid="threadwork-settings-access">
          Threadwork may not reach {savedHost} yet: your browser asks you once.{' '}
          <button
            type="button"
            class="tw-primary"
            ref={grantButton}
            data-testid="threadwork-settings-grant"
            onClick={askAgain}
          >
            Allow access to {savedHost}
          </button>
        </div>
      )}
      {FIELDS.map(({ name, label, testId, input }) => {
        const problem = problems[name];
        return (
          <label key={name}>
            {label}
            <input
              data-testid={testId}
              ref={(element) => {
                inputs.current[name] = element;
              }}
              {...input}
              {...(name === 'apiSecret' && view?.hasSecret
                ? { placeholder: 'Saved (leave empty to keep it)' }
                : {})}
              aria-invalid={problem !== undefined}
              aria-describedby={problem !== undefined ? `tw-problem-${name}` : undefined}
              {...field(name)}
            />
            {problem !== undefined && (
              <span
                class="tw-problem"
                id={`tw-problem-${name}`}
                data-testid="threadwork-settings-problem"
                data-field={name}
              >
                {problem}
              </span>
            )}
          </label>
        );
      })}
      <div class="tw-buttons">
        <button type="submit" class="tw-primary" data-testid="threadwork-settings-save" disabled={busy}>
          Save
        </button>
        <button type="button" data-testid="threadwork-settings-test" disabled={busy} onClick={test}>
          Test connection
        </button>
      </div>
      <GrantStatus state={grant.state} host={typedOrigin === null ? savedHost : new URL(typedOrigin).host} />
      {outcome.kind === 'done' && outcome.saved && (
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
      <ErrorArea error={error} testId="threadwork-settings-error" onGrant={askAgain} />
      <ShortcutInfo send={send} />
    </form>
  );
}
