/**
 * The panel, as its frame shows it (entrypoints/panel): a dialog with the task panel for the open thread, or
 * the settings. The mailbox page tells it what to show (lib/frame.ts); it keeps the keyboard inside itself
 * (Tab cycles, Escape closes, Ctrl+Enter creates) and tells the page its height and when to close.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FrameMessage, PanelMode, ShowMessage, ThreadMeta } from '../lib/frame.ts';
import type { Send } from '../lib/messaging.ts';
import type { Access } from '../lib/ui/access.ts';
import { ShortcutHint } from './ShortcutHint.tsx';
import type { Settings as SettingsComponent } from './settings/Settings.tsx';
import { TaskPanel } from './task/TaskPanel.tsx';
import { discardDraft, keptDraft } from './task/useDraft.ts';

/** The page around the frame: what it sends in, and where the frame's own messages go. */
export interface FrameHost {
  post(message: FrameMessage): void;
  listen(onShow: (message: ShowMessage) => void): () => void;
}

/** What may take the keyboard inside the panel, in document order. */
const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';
const FIELD = '.tw-form textarea, .tw-form input, .tw-form select';

export function Panel({ send, access, host }: { send: Send; access: Access; host: FrameHost }) {
  const [thread, setThread] = useState<ThreadMeta | null>(null);
  /** Nothing is shown (nor asked of the service) before the page says what to show. */
  const [shownOnce, setShownOnce] = useState(false);
  const [mode, setMode] = useState<PanelMode>('task');
  const [dark, setDark] = useState(false);
  /** A thread left with a draft in it while the panel stayed open: said in the next thread's panel. */
  const [kept, setKept] = useState<{ id: string; subject: string } | null>(null);
  const [focusAsked, setFocusAsked] = useState(0);
  const panel = useRef<HTMLDivElement>(null);
  const submit = useRef<(() => void) | null>(null);
  const shownThread = useRef<ThreadMeta | null>(null);

  useEffect(() => {
    const stop = host.listen((message) => {
      const previous = shownThread.current;
      const next = message.thread;
      shownThread.current = next;
      // Another thread while a draft was being written: the draft stays, and the panel says so.
      if (previous !== null && previous.id !== next?.id && keptDraft(previous.id) !== undefined)
        setKept({ id: previous.id, subject: previous.subject });
      else if (next !== null) setKept((current) => (current?.id === next.id ? null : current));
      setThread(next);
      setShownOnce(true);
      if (message.mode !== null) setMode(message.mode);
      setDark(message.dark);
      if (message.focus) setFocusAsked((count) => count + 1);
    });
    return stop;
  }, []);

  // The settings' chunk comes once the first panel is up, when the frame has nothing else to do.
  useEffect(() => {
    if (!shownOnce) return;
    const idle = requestIdleCallback(() => void loadSettings(), { timeout: 5000 });
    return () => cancelIdleCallback(idle);
  }, [shownOnce]);

  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    document.body.classList.toggle('tw-dark', dark);
  }, [dark]);

  // The page's frame is as tall as the panel (up to what the window leaves).
  useEffect(() => {
    const element = panel.current;
    if (element === null) return;
    const report = () => host.post({ threadwork: 'size', height: element.getBoundingClientRect().height });
    const observer = new ResizeObserver(report);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Opened: the keyboard goes to the first field, as soon as it is drawn (the form draws after the settings load).
  useEffect(() => {
    if (focusAsked === 0) return;
    return focusFirstField(panel.current);
  }, [focusAsked, mode]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Escape closes on keyup, so that no half of the key press lands on the page once the panel is gone.
      if (event.type === 'keyup' && event.key === 'Escape') host.post({ threadwork: 'close' });
      else if (event.type === 'keydown' && event.key === 'Tab') keepTabInside(panel.current, event);
      else if (event.type === 'keydown' && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        submit.current?.();
      }
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('keyup', onKey);
    };
  }, []);

  const shown = thread === null ? 'settings' : mode;
  const title = shown === 'task' ? 'Create task' : 'Threadwork settings';
  return (
    <div
      class="tw-panel"
      ref={panel}
      data-testid="threadwork-panel"
      role="dialog"
      aria-modal="true"
      aria-labelledby="tw-panel-title"
      // Focusable, so a click anywhere in the panel keeps the keyboard (Escape, Tab) in the panel.
      tabIndex={-1}
    >
      <div class="tw-head">
        <h2 id="tw-panel-title">{title}</h2>
        <span>
          {shown === 'task' ? (
            <button type="button" onClick={() => setMode('settings')}>
              Settings
            </button>
          ) : (
            thread !== null && (
              <button type="button" onClick={() => setMode('task')}>
                Back
              </button>
            )
          )}
          <button
            type="button"
            title="Close (Esc)"
            aria-label="Close"
            onClick={() => host.post({ threadwork: 'close' })}
          >
            ✕
          </button>
        </span>
      </div>
      {!shownOnce ? null : shown === 'task' && thread !== null ? (
        <>
          <TaskPanel
            key={thread.id}
            thread={thread}
            send={send}
            access={access}
            onOpenSettings={() => setMode('settings')}
            onSubmitRef={(run) => {
              submit.current = run;
            }}
            keptElsewhere={
              kept === null
                ? null
                : {
                    subject: kept.subject,
                    discard: () => {
                      discardDraft(kept.id);
                      setKept(null);
                    },
                  }
            }
          />
          <ShortcutHint send={send} />
        </>
      ) : (
        <LazySettings send={send} access={access} />
      )}
    </div>
  );
}

/** Focuses the panel's first field once it is there (or the dialog itself); answers how to stop waiting. */
function focusFirstField(panel: HTMLElement | null): (() => void) | undefined {
  if (panel === null) return undefined;
  window.focus();
  const field = () => panel.querySelector<HTMLElement>(FIELD);
  const now = field();
  if (now !== null) {
    now.focus();
    return undefined;
  }
  panel.focus();
  const observer = new MutationObserver(() => {
    const found = field();
    if (found === null) return;
    observer.disconnect();
    // Only while the user has not moved the keyboard elsewhere in the meantime.
    if (document.activeElement === panel || document.activeElement === document.body) found.focus();
  });
  observer.observe(panel, { childList: true, subtree: true });
  const timer = setTimeout(() => observer.disconnect(), 5000);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

/**
 * Tab and Shift+Tab cycle through the panel's controls and never leave it. From an element that is not a
 * control (the dialog, the confirmation) Tab goes on in document order, and wraps only at the ends.
 */
function keepTabInside(panel: HTMLElement | null, event: KeyboardEvent): void {
  if (panel === null) return;
  const controls = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (control) => !(control as HTMLButtonElement).disabled && control.getClientRects().length > 0,
  );
  const first = controls[0];
  const last = controls.at(-1);
  if (first === undefined || last === undefined) return;
  const active = document.activeElement as HTMLElement | null;
  const outside = active === null || active === document.body || !panel.contains(active) || active === panel;
  const follows = (control: HTMLElement) =>
    active !== null && (active.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const atEnd = outside || (controls.includes(active) ? active === last : !controls.some(follows));
  const atStart = outside || (controls.includes(active) ? active === first : controls.every(follows));
  if (event.shiftKey && atStart) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && atEnd) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * The settings, loaded the first time they show (they bring zod, for the form's checks): the task panel,
 * shown far more often, opens without them. Their chunk is fetched once the panel is idle.
 */
let settingsChunk: Promise<typeof SettingsComponent> | undefined;
const loadSettings = () => {
  settingsChunk ??= import('./settings/Settings.tsx').then((chunk) => chunk.Settings);
  return settingsChunk;
};

function LazySettings({ send, access }: { send: Send; access: Access }) {
  const [Settings, setSettings] = useState<typeof SettingsComponent | null>(null);
  useEffect(() => {
    void loadSettings().then((loaded) => setSettings(() => loaded));
  }, []);
  return Settings === null ? (
    <p class="tw-muted">Loading…</p>
  ) : (
    <Settings send={send} access={access} inPanel />
  );
}
