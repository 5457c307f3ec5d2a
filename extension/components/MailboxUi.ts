import type { OpenThread } from '../lib/gmail/thread.ts';
import type { Send } from '../lib/messaging.ts';
import { createShadowHost, type ShadowHost } from '../lib/ui/host.ts';
import type { PanelApi, PanelMode } from '../lib/ui/panel-api.ts';
import { isDarkTheme } from '../lib/ui/theme.ts';
import { BUTTON_STYLES } from './styles.ts';

/** What may take the keyboard inside the panel, in document order. */
const FOCUSABLE = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * What the extension puts in the mailbox: the "Create task" button (in the open conversation's toolbar row,
 * or floating when it has none) and the panel, whose code is loaded on first open. `show` is called on every
 * change of the open thread. The button is plain DOM so that the script on every mailbox page stays small.
 */
export class MailboxUi {
  readonly #document: Document;
  readonly #send: Send;
  readonly #loadPanel: () => Promise<PanelApi>;
  #thread: OpenThread | null = null;
  #button: (ShadowHost & { control: HTMLButtonElement }) | null = null;
  #panel: ShadowHost | null = null;
  #api: PanelApi | null = null;
  #mode: PanelMode | null = null;
  #submit: (() => void) | undefined;

  constructor(document: Document, send: Send, loadPanel: () => Promise<PanelApi>) {
    this.#document = document;
    this.#send = send;
    this.#loadPanel = loadPanel;
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

  async openPanel(mode: PanelMode = this.#thread === null ? 'settings' : 'task'): Promise<void> {
    const opening = this.#mode === null;
    this.#mode = mode;
    if (this.#panel === null) {
      this.#panel = createShadowHost(this.#document, 'panel', '', (event) => this.#onKey(event));
      this.#document.body.append(this.#panel.host);
    }
    this.#button?.control.setAttribute('aria-expanded', 'true');
    this.#themeButton();
    try {
      this.#api ??= await this.#loadPanel();
    } catch {
      // The extension was updated or reloaded under this page: its files are gone until the page reloads.
      if (this.#panel !== null) {
        this.#panel.mount.textContent = 'Threadwork was updated: reload the page to use it.';
      }
      return;
    }
    if (this.#mode === null) return;
    this.#renderPanel();
    if (opening || mode === 'settings') this.#focusFirst();
  }

  closePanel(): void {
    if (this.#mode === null && this.#panel === null) return;
    this.#mode = null;
    if (this.#panel !== null) {
      this.#api?.unmount(this.#panel.mount);
      this.#panel.host.remove();
      this.#panel = null;
    }
    this.#button?.control.setAttribute('aria-expanded', 'false');
    // The keyboard goes back where it came from: the button that opened the panel.
    if (this.#button?.host.isConnected) this.#button.control.focus();
  }

  #focusFirst(): void {
    const mount = this.#panel?.mount;
    const field = mount?.querySelector<HTMLElement>('.tw-form textarea, .tw-form input, .tw-form select');
    (field ?? mount?.querySelector<HTMLElement>('[role="dialog"]'))?.focus();
  }

  #onKey(event: KeyboardEvent): void {
    // Escape closes on keyup, so that no half of the key press lands on the page once the panel is gone.
    if (event.type === 'keyup' && event.key === 'Escape') this.closePanel();
    else if (event.type === 'keydown' && event.key === 'Tab') this.#keepTabInside(event);
    else if (event.type === 'keydown' && event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      this.#submit?.();
    }
  }

  /** Tab and Shift+Tab cycle through the panel's controls and never leave it. */
  #keepTabInside(event: KeyboardEvent): void {
    const mount = this.#panel?.mount;
    if (mount === undefined) return;
    const controls = Array.from(mount.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (control) => !(control as HTMLButtonElement).disabled && control.getClientRects().length > 0,
    );
    const first = controls[0];
    const last = controls.at(-1);
    if (first === undefined || last === undefined) return;
    const active = (mount.getRootNode() as ShadowRoot).activeElement;
    const inside = active !== null && controls.includes(active as HTMLElement);
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  }

  /** The button follows the mailbox's theme each time it is placed and each time the panel opens. */
  #themeButton(): void {
    this.#button?.mount.classList.toggle('tw-dark', this.#dark());
  }

  #dark(): boolean {
    return isDarkTheme(this.#thread?.toolbar ?? this.#thread?.heading ?? this.#document.body);
  }

  #placeButton(): void {
    const thread = this.#thread;
    if (thread === null) {
      this.#button?.host.remove();
      this.#button = null;
      return;
    }
    if (this.#button === null) this.#button = this.#createButton();
    const { host, control } = this.#button;
    const toolbar = thread.toolbar;
    control.classList.toggle('tw-floating', toolbar === null);
    if (toolbar === null) {
      if (host.parentElement !== this.#document.body) this.#document.body.append(host);
    } else if (!toolbar.contains(host)) {
      placeInRow(toolbar, host);
    }
    this.#themeButton();
  }

  #createButton(): ShadowHost & { control: HTMLButtonElement } {
    const shadow = createShadowHost(this.#document, 'button', BUTTON_STYLES, (event) => {
      if (event.type === 'keyup' && event.key === 'Escape') this.closePanel();
    });
    const control = this.#document.createElement('button');
    control.type = 'button';
    control.className = 'tw-create';
    control.dataset['testid'] = 'threadwork-create-task';
    control.title = 'Create a task from this thread';
    control.setAttribute('aria-haspopup', 'dialog');
    control.setAttribute('aria-expanded', String(this.#mode !== null));
    const icon = this.#document.createElement('span');
    icon.setAttribute('aria-hidden', 'true');
    icon.textContent = '✓';
    control.append(icon, 'Create task');
    control.addEventListener('click', () => {
      if (this.#mode === 'task') this.closePanel();
      else void this.openPanel('task');
    });
    // The panel's code starts loading as soon as the user reaches for the button.
    const warm = () => void this.#loadPanel().catch(() => {});
    control.addEventListener('pointerenter', warm, { once: true });
    control.addEventListener('focus', warm, { once: true });
    shadow.mount.append(control);
    return { ...shadow, control };
  }

  #renderPanel(): void {
    if (this.#panel === null || this.#mode === null || this.#api === null) return;
    const thread = this.#thread;
    this.#api.render(this.#panel.mount, {
      thread: thread === null ? null : { id: thread.id, subject: thread.subject },
      mode: this.#mode,
      dark: this.#dark(),
      send: this.#send,
      onMode: (mode) => void this.openPanel(mode),
      onClose: () => this.closePanel(),
      onSubmitRef: (submit) => {
        this.#submit = submit;
      },
    });
  }
}

/**
 * Puts the button in the toolbar's row: right after the last of the row's own buttons on its left half (the
 * right side holds the pager), so that it never starts a row of its own. A toolbar not laid out yet (hidden)
 * gets it at the end.
 */
export function placeInRow(toolbar: Element, host: HTMLElement): void {
  const bounds = toolbar.getBoundingClientRect();
  const buttons = Array.from(toolbar.querySelectorAll<HTMLElement>('[role="button"], button'))
    .map((element) => ({ element, rect: element.getBoundingClientRect() }))
    .filter(({ rect }) => rect.width > 0 && rect.height > 0);
  const first = buttons[0];
  if (first === undefined) {
    toolbar.append(host);
    return;
  }
  const row = first.rect.top + first.rect.height / 2;
  const inRow = buttons.filter(
    ({ rect }) =>
      Math.abs(rect.top + rect.height / 2 - row) < first.rect.height / 2 &&
      rect.left < bounds.left + bounds.width / 2,
  );
  (inRow.at(-1) ?? first).element.after(host);
}
