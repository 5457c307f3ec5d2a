import { browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createIframeUi, type IframeContentScriptUi } from 'wxt/utils/content-script-ui/iframe';
import {
  frameMessage,
  MESSAGE_TEXT_LIMIT,
  PANEL_PAGE,
  type PanelMode,
  type ShowMessage,
  type ThreadMeta,
} from '../lib/frame.ts';
import { type OpenThread, readOpenMessage } from '../lib/gmail/thread.ts';
import { watchOpenThread } from '../lib/gmail/watch.ts';
import { createShadowHost, type ShadowHost } from '../lib/ui/host.ts';
import { isDarkTheme } from '../lib/ui/theme.ts';
import { BUTTON_STYLES, FRAME_STYLES } from './styles.ts';

/** The frame's height until it reports its own (it reports as soon as it has drawn). */
const FIRST_HEIGHT = 360;

/**
 * What the extension puts in the mailbox: the "Create task" button (in the open conversation's toolbar row,
 * or floating when it has none) and the panel's frame (an extension page: the mailbox page cannot read what
 * it shows, lib/frame.ts). `show` is called on every change of the open thread. The button is plain DOM so
 * that the script on every mailbox page stays small; the frame is created once the mailbox is idle after a
 * thread first opens (or when the user reaches for the button), and kept (hidden) once closed, with what the
 * user typed in it.
 */
export class MailboxUi {
  readonly #ctx: ContentScriptContext;
  readonly #document: Document;
  /** The extension's own origin: the frame's messages come from there, and only there do ours go. */
  readonly #origin: string;
  #thread: OpenThread | null = null;
  #button: (ShadowHost & { control: HTMLButtonElement }) | null = null;
  #frameHost: ShadowHost | null = null;
  #frame: IframeContentScriptUi<void> | null = null;
  #ready = false;
  /** The mode the panel was opened in; null while it is closed. */
  #mode: PanelMode | null = null;
  /** The next show message takes the keyboard into the frame (the panel was just opened). */
  #focus = false;

  /** Tells the background the panel is about to open, so what it asks for first is on its way already. */
  readonly #warm: () => void;

  constructor(ctx: ContentScriptContext, document: Document, extensionOrigin: string, warm: () => void) {
    this.#ctx = ctx;
    this.#document = document;
    this.#origin = extensionOrigin;
    this.#warm = warm;
    const view = document.defaultView;
    if (view !== null) {
      ctx.addEventListener(view, 'message', (event) => this.#onFrameMessage(event as MessageEvent));
      ctx.addEventListener(view, 'resize', () => this.#fitInRow());
    }
    ctx.onInvalidated(() => {
      this.#button?.host.remove();
      this.#frameHost?.host.remove();
    });
  }

  show(thread: OpenThread | null): void {
    const previous = this.#thread;
    this.#thread = thread;
    this.#placeButton();
    if (this.#mode === null || thread?.id === previous?.id) return;
    // Back to the list: the panel goes (what was typed is kept); another thread: the panel follows it.
    if (thread === null && this.#mode === 'task') this.closePanel();
    else this.#sendShow(null);
  }

  /** Whether the button is where `show` put it: false once the page has re-rendered it away. */
  isPlaced(): boolean {
    return this.#thread === null || this.#button?.host.isConnected === true;
  }

  openPanel(mode: PanelMode = this.#thread === null ? 'settings' : 'task'): void {
    if (mode === 'task') this.#warm();
    this.#mode = mode;
    this.#focus = true;
    this.#button?.control.setAttribute('aria-expanded', 'true');
    this.#themeButton();
    this.#ensureFrame();
    if (this.#ready) this.#sendShow(mode);
  }

  closePanel(): void {
    if (this.#mode === null) return;
    this.#mode = null;
    this.#frame?.iframe.classList.remove('tw-open');
    this.#button?.control.setAttribute('aria-expanded', 'false');
    // The keyboard goes back where it came from: the button that opened the panel.
    if (this.#button?.host.isConnected) this.#button.control.focus();
  }

  /** The frame, created once (hidden until the panel opens); its page starts loading at once. */
  #ensureFrame(): void {
    if (this.#frame !== null) return;
    const host = createShadowHost(this.#document, 'panel', FRAME_STYLES);
    this.#document.body.append(host.host);
    this.#frameHost = host;
    this.#frame = createIframeUi(this.#ctx, {
      page: PANEL_PAGE,
      position: 'inline',
      anchor: host.mount,
      // Before the frame is in the page: its navigation starts then, and reads `allow` once.
      onBeforeMount: (_wrapper, iframe) => {
        iframe.className = 'tw-frame';
        iframe.title = 'Threadwork';
        // The API tab's "Copy" puts a new key's secret on the clipboard from inside the frame.
        iframe.allow = 'clipboard-write';
        iframe.dataset['threadworkFrame'] = '';
        iframe.style.height = `${FIRST_HEIGHT}px`;
      },
    });
    this.#frame.mount();
  }

  #onFrameMessage(event: MessageEvent): void {
    const iframe = this.#frame?.iframe;
    // Only the extension's own pages have its origin (a random one in Firefox): no page script can send as it.
    if (iframe === undefined || event.origin !== this.#origin) return;
    const message = frameMessage(event.data);
    if (message === null) return;
    if (message.threadwork === 'ready') {
      this.#ready = true;
      if (this.#mode !== null) this.#sendShow(this.#mode);
    } else if (message.threadwork === 'size') {
      iframe.style.height = `${Math.ceil(message.height)}px`;
    } else {
      this.closePanel();
    }
  }

  /** Shows the panel in the frame for the current thread; `mode` null keeps the mode the frame is in. */
  #sendShow(mode: PanelMode | null): void {
    const iframe = this.#frame?.iframe;
    if (iframe === undefined || !this.#ready || this.#mode === null) return;
    iframe.classList.add('tw-open');
    const focus = this.#focus;
    this.#focus = false;
    // The page gives the keyboard to the frame; the frame then puts it on its first field.
    if (focus) iframe.focus();
    const message: ShowMessage = {
      threadwork: 'show',
      mode,
      thread: this.#threadMeta(),
      dark: this.#dark(),
      focus,
    };
    iframe.contentWindow?.postMessage(message, this.#origin);
  }

  /** The thread as the frame gets it: metadata only (lib/frame.ts), read when the panel shows it. */
  #threadMeta(): ThreadMeta | null {
    const thread = this.#thread;
    if (thread === null) return null;
    return {
      id: thread.id,
      subject: thread.subject,
      url: this.#document.location?.href ?? '',
      message: readOpenMessage(thread.heading, MESSAGE_TEXT_LIMIT),
    };
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
    if (this.#button === null) {
      this.#button = this.#createButton();
      // The panel's page loads in its frame (hidden) once the mailbox is idle, so the first click finds it ready.
      if (typeof requestIdleCallback === 'function')
        this.#ctx.requestIdleCallback(() => this.#ensureFrame(), { timeout: 5000 });
    }
    const { host, control } = this.#button;
    const toolbar = thread.toolbar;
    control.classList.toggle('tw-floating', toolbar === null);
    if (toolbar === null) {
      if (host.parentElement !== this.#document.body) this.#document.body.append(host);
    } else if (!toolbar.contains(host)) {
      placeInRow(toolbar, host);
    }
    this.#fitInRow();
    this.#themeButton();
  }

  /**
   * In a narrow window the toolbar's row may have no room for the labelled button: then it shows its icon
   * alone (the label stays its accessible name) rather than start a second row.
   */
  #fitInRow(): void {
    const button = this.#button;
    const toolbar = this.#thread?.toolbar;
    if (button === null || toolbar === null || toolbar === undefined) return;
    button.control.classList.remove('tw-compact');
    if (!inFirstRow(toolbar, button.host)) button.control.classList.add('tw-compact');
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
    icon.className = 'tw-icon';
    icon.setAttribute('aria-hidden', 'true');
    // A plus: "add a task" (a check mark read as "done").
    icon.textContent = '+';
    const label = this.#document.createElement('span');
    label.className = 'tw-label';
    label.textContent = 'Create task';
    control.append(icon, label);
    control.addEventListener('click', () => {
      if (this.#mode !== null) this.closePanel();
      else this.openPanel('task');
    });
    // The panel's page starts loading, and its first answers coming, as soon as the user reaches for the button.
    const warm = () => {
      this.#ensureFrame();
      this.#warm();
    };
    control.addEventListener('pointerenter', warm, { once: true });
    control.addEventListener('focus', warm, { once: true });
    shadow.mount.append(control);
    return { ...shadow, control };
  }
}

/**
 * Starts the extension in a mailbox page: the button and frame (`MailboxUi`) follow the open thread, and the
 * background's relay of the keyboard shortcut opens the panel. Everything ends with `ctx`.
 */
export function startMailbox(ctx: ContentScriptContext, document: Document): MailboxUi {
  // The extension's origin as its pages' messages carry it (`new URL` gives no origin for these schemes).
  const ui = new MailboxUi(ctx, document, browser.runtime.getURL('/').replace(/\/$/, ''), () => {
    try {
      browser.runtime.sendMessage({ type: 'panel.warm' }).catch(() => {});
    } catch {
      // The extension was updated under the page: this script's context is gone.
    }
  });
  const stop = watchOpenThread(
    document,
    (thread) => {
      // An orphaned script (the extension was reloaded under this page) notices here and ends its work.
      if (ctx.isValid) ui.show(thread);
    },
    () => ui.isPlaced(),
  );
  ctx.onInvalidated(stop);
  // The keyboard shortcut, relayed by the background.
  const onMessage = (message: unknown) => {
    if ((message as { type?: unknown } | null)?.type === 'panel.open' && ctx.isValid) ui.openPanel();
    return undefined;
  };
  browser.runtime.onMessage.addListener(onMessage);
  ctx.onInvalidated(() => browser.runtime.onMessage.removeListener(onMessage));
  return ui;
}

/** The row of a toolbar's own buttons: those laid out on the first one's line, on the toolbar's left half. */
function rowButtons(toolbar: Element): { element: HTMLElement; rect: DOMRect }[] {
  const bounds = toolbar.getBoundingClientRect();
  const buttons = Array.from(toolbar.querySelectorAll<HTMLElement>('[role="button"], button'))
    .map((element) => ({ element, rect: element.getBoundingClientRect() }))
    .filter(({ rect }) => rect.width > 0 && rect.height > 0);
  const first = buttons[0];
  if (first === undefined) return [];
  return buttons.filter(
    ({ rect }) => onLineOf(first.rect, rect) && rect.left < bounds.left + bounds.width / 2,
  );
}

/** Whether `rect` sits on the line of `first`: their middles less than half its height apart. */
function onLineOf(first: DOMRect, rect: DOMRect): boolean {
  return Math.abs(rect.top + rect.height / 2 - (first.top + first.height / 2)) < first.height / 2;
}

/**
 * Puts the button in the toolbar's row: right after the last of the row's own buttons on its left half (the
 * right side holds the pager), so that it never starts a row of its own. A toolbar not laid out yet (hidden)
 * gets it at the end.
 */
export function placeInRow(toolbar: Element, host: HTMLElement): void {
  const last = rowButtons(toolbar).at(-1);
  if (last === undefined) toolbar.append(host);
  else last.element.after(host);
}

/** Whether `host` sits on the line of the toolbar's first button (true while the toolbar is not laid out). */
function inFirstRow(toolbar: Element, host: HTMLElement): boolean {
  const first = rowButtons(toolbar)[0];
  const rect = host.getBoundingClientRect();
  if (first === undefined || rect.height === 0) return true;
  return onLineOf(first.rect, rect);
}
