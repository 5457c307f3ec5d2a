import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, fieldMessage } from '../api.ts';

export function Failure({ error }: { error: ApiError }) {
  return (
    <p class="error" role="alert">
      {error.status === 404 ? 'Not found: ' : ''}
      {error.message}
    </p>
  );
}

export function Loading() {
  return <p class="muted">Loading…</p>;
}

/** The tab's title: what the page shows, then the app's name. */
export function useTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · Threadwork console` : 'Threadwork console';
  }, [title]);
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDate(value: string | null | undefined): string {
  return value ? dateFormat.format(new Date(value)) : '—';
}

export function formatTime(value: string | null | undefined): string {
  return value ? timeFormat.format(new Date(value)) : '—';
}

export function Time({ value, withTime = false }: { value: string | null | undefined; withTime?: boolean }) {
  if (!value) return <span class="muted">—</span>;
  return <time dateTime={value}>{withTime ? formatTime(value) : formatDate(value)}</time>;
}

/** The shade names of the spec, as a person reads them. */
export const SHADE_LABELS: Record<string, string> = {
  none: 'No shade',
};

export function shadeLabel(shade: string): string {
  return SHADE_LABELS[shade] ?? shade.replace(/_/g, ' ');
}

/**
 * A value asked for (a box ticked, an option chosen), shown in place of the server's `value` while the
 * change is made and the page reads it again, so that the control never jumps back meanwhile; the last
 * one asked for wins.
 */
export function useAsked<T>(value: T): [T, (next: T, work: () => Promise<unknown>) => Promise<void>] {
  const [asked, setAsked] = useState<{ value: T } | null>(null);
  const latest = useRef(0);
  async function ask(next: T, work: () => Promise<unknown>) {
    const mine = ++latest.current;
    setAsked({ value: next });
    try {
      await work();
    } finally {
      if (mine === latest.current) setAsked(null);
    }
  }
  return [asked ? asked.value : value, ask];
}

/** The server's message for one field, under its input (`id` ties it to the input's aria-describedby). */
export function FieldError({ id, error, field }: { id: string; error: ApiError | null; field: string }) {
  const message = fieldMessage(error, field) ?? (error ? error.message : null);
  if (!message) return null;
  return (
    <span class="error field-error" id={id} role="alert">
      {message}
    </span>
  );
}

/** A secret shown once, read-only, with a Copy button. */
export function Secret({ id, label, value }: { id: string; label: ComponentChildren; value: string }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard permission (an insecure context, a refusal): select it for Ctrl+C instead.
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  }
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      <span class="secret-row">
        <input id={id} ref={input} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={copy} aria-describedby={id}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </span>
    </div>
  );
}

/**
 * A name changed in place: shown as text with a Rename button; the button opens a box that saves on
 * Enter (or the Save button) and cancels on Escape. The typed text stays when the server refuses it,
 * with the server's message beside it.
 */
export function InlineRename({
  name,
  what,
  onSave,
  children,
}: {
  name: string;
  /** What is renamed, for the labels ("list Backlog"). */
  what: string;
  onSave(name: string): Promise<ApiError | null>;
  children?: ComponentChildren;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(name);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (editing) box.current?.select();
  }, [editing]);
  const close = () => {
    setEditing(false);
    setError(null);
    requestAnimationFrame(() => opener.current?.focus());
  };
  async function save(event: Event) {
    event.preventDefault();
    const next = text.trim();
    if (next === name) return close();
    setBusy(true);
    const failure = await onSave(next);
    setBusy(false);
    if (failure) setError(failure);
    else close();
  }
  if (!editing) {
    return (
      <span class="renamable">
        {children ?? name}{' '}
        <button
          type="button"
          class="link-button"
          ref={opener}
          onClick={() => {
            setText(name);
            setEditing(true);
          }}
        >
          Rename<span class="visually-hidden"> {what}</span>
        </button>
      </span>
    );
  }
  const errorId = `rename-error-${what.replace(/\W+/g, '-')}`;
  return (
    <form class="rename" onSubmit={save}>
      <input
        ref={box}
        value={text}
        aria-label={`New name for ${what}`}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? errorId : undefined}
        disabled={busy}
        onInput={(event) => setText((event.target as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            close();
          }
        }}
      />
      <button type="submit" disabled={busy || text.trim() === ''}>
        Save
      </button>
      <button type="button" onClick={close}>
        Cancel
      </button>
      <FieldError id={errorId} error={error} field="name" />
    </form>
  );
}

/**
 * A destructive action in two steps: the button, then "Confirm …" beside "Cancel". Escape cancels, and
 * focus goes back to the button.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  what,
  busy,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  /** Named for screen readers after the label ("Delete" → "Delete task Call Bob"). */
  what: string;
  busy?: boolean;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  // As the confirmation is drawn (not a frame later): an Escape pressed at once already cancels it.
  useLayoutEffect(() => {
    if (asking) {
      confirm.current?.focus();
      const onKey = (event: KeyboardEvent) => {
        if (event.key !== 'Escape') return;
        returnFocus.current = true;
        setAsking(false);
      };
      document.addEventListener('keydown', onKey);
      return () => document.removeEventListener('keydown', onKey);
    }
    if (returnFocus.current) opener.current?.focus();
    returnFocus.current = false;
    return undefined;
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" ref={opener} onClick={() => setAsking(true)} disabled={busy}>
        {label}
        <span class="visually-hidden"> {what}</span>
      </button>
    );
  }
  return (
    <span class="confirm">
      <button
        type="button"
        class="danger"
        ref={confirm}
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
        <span class="visually-hidden"> {what}</span>
      </button>
      <button
        type="button"
        onClick={() => {
          returnFocus.current = true;
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </span>
  );
}
