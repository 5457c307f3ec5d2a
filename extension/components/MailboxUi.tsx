import type { render as preactRender } from 'preact';
import type { OpenThread } from '../lib/gmail/thread.ts';
import type { Send } from '../lib/messaging.ts';
import { createShadowHost, type ShadowHost } from '../lib/ui/host.ts';
import { Settings } from './Settings.tsx';
import { TaskPanel } from './TaskPanel.tsx';

type Mode = 'task' | 'settings';

/**
 * What the extension puts in the mailbox: the "Create task" button (in the open conversation's toolbar, or
 * floating when it has none) and the panel. `show` is called on every change of the open thread.
 */
export class MailboxUi {
  readonly #document: Document;
  readonly #send: Send;
  readonly #render: typeof preactRender;
  #thread: OpenThread | null = null;
  #button: ShadowHost | null = null;
  #panel: ShadowHost | null = null;
  #mode: Mode | null = null;
  #submit: (() => void) | undefined;

  constructor(document: Document, send: Send, render: typeof preactRender) {
    this.#document = document;
    this.#send = send;
    this.#render = render;
  }

  show(thread: OpenThread | null): void {
    const previous = this.#thread;
    this.#thread = thread;
    this.#placeButton();
    // Back to the list: the task panel goes (the draft is kept); another thread: the panel follows it.
    if (this.#mode === 'task' && (thread === null || thread.id !== previous?.id)) {
      if (thread === null) this.closePanel();
      else this.#renderPanel();
    }
  }

  /** Whether the button is where `show` put it: false once the page has re-rendered it away. */
  isPlaced(): boolean {
    return this.#thread === null || this.#button?.host.isConnected === true;
  }

  openPanel(mode: Mode = this.#thread === null ? 'settings' : 'task'): void {
    this.#mode = mode;
    if (this.#panel === null) {
      this.#panel = createShadowHost(this.#document, 'panel', (event) => this.#onKey(event));
      this.#document.body.append(this.#panel.host);
    }
    this.#renderPanel();
    this.#panel.mount.querySelector<HTMLElement>('textarea, input')?.focus();
  }

  closePanel(): void {
    this.#mode = null;
    if (this.#panel !== null) {
      this.#render(null, this.#panel.mount);
      this.#panel.host.remove();
      this.#panel = null;
    }
  }

  #onKey(event: KeyboardEvent): void {
    // Escape closes on keyup, so that no half of the key press lands on the page once the panel is gone.
    if (event.type === 'keyup' && event.key === 'Escape') this.closePanel();
    else if (event.type === 'keydown' && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      this.#submit?.();
    }
  }

  #placeButton(): void {
    const thread = this.#thread;
    if (thread === null) {
      this.#button?.host.remove();
      this.#button = null;
      return;
    }
    const floating = thread.toolbar === null;
    const parent = thread.toolbar ?? this.#document.body;
    if (this.#button === null) this.#button = createShadowHost(this.#document, 'button');
    const { host, mount } = this.#button;
    if (host.parentElement !== parent) parent.append(host);
    this.#render(
      <button
        type="button"
        class={floating ? 'tw-create tw-floating' : 'tw-create'}
        data-testid="threadwork-create-task"
        title="Create a task from this thread"
        onClick={() => (this.#mode === 'task' ? this.closePanel() : this.openPanel('task'))}
      >
        ✓ Create task
      </button>,
      mount,
    );
  }

  #renderPanel(): void {
    if (this.#panel === null || this.#mode === null) return;
    const thread = this.#thread;
    const mode = thread === null ? 'settings' : this.#mode;
    this.#render(
      <div class="tw-panel" data-testid="threadwork-panel" role="dialog" aria-label="Threadwork">
        <div class="tw-head">
          <h2>{mode === 'task' ? 'Create task' : 'Threadwork settings'}</h2>
          <span>
            {mode === 'task' ? (
              <button type="button" title="Settings" onClick={() => this.openPanel('settings')}>
                Settings
              </button>
            ) : (
              thread !== null && (
                <button type="button" onClick={() => this.openPanel('task')}>
                  Back
                </button>
              )
            )}
            <button type="button" title="Close (Esc)" aria-label="Close" onClick={() => this.closePanel()}>
              ✕
            </button>
          </span>
        </div>
        {mode === 'task' && thread !== null ? (
          <TaskPanel
            key={thread.id}
            thread={{ id: thread.id, subject: thread.subject }}
            send={this.#send}
            onOpenSettings={() => this.openPanel('settings')}
            onSubmitRef={(submit) => {
              this.#submit = submit;
            }}
          />
        ) : (
          <Settings send={this.#send} />
        )}
      </div>,
      this.#panel.mount,
    );
  }
}
