import type { ContentScriptContext } from 'wxt/utils/content-script-context';

/**
 * Keeps keys aimed at the extension's button away from the mailbox's keyboard shortcuts ("c" compose,
 * "e" archive, "#" delete, "/" search, …). (The panel needs no guard: it is a frame of the extension's own,
 * and keys typed there never reach the page.) Two guards:
 * - at each shadow host, key events stop bubbling (the page's ordinary listeners never see them);
 * - on `window`, in the capture phase and registered before the page's own scripts run (document_start),
 *   key events aimed at one of our hosts stop there, so the page's capture-phase listeners never see them
 *   either. Stopping propagation does not stop typing: the browser still inserts the text.
 * Because the second guard also hides the event from our own listeners, keys the UI handles itself
 * (Escape, Ctrl+Enter) are passed to `onKey` (keydown and keyup).
 */
export const KEY_EVENTS = ['keydown', 'keyup', 'keypress'] as const;

const hosts = new WeakSet<EventTarget>();
const keyHandlers = new WeakMap<EventTarget, (event: KeyboardEvent) => void>();

export function installCaptureGuard(ctx: ContentScriptContext, window: Window): void {
  // Through `ctx`: the guard goes with the script when the extension is updated under the page.
  for (const type of KEY_EVENTS) {
    ctx.addEventListener(
      window,
      type,
      (event) => {
        const target = event.target;
        if (target === null || !hosts.has(target)) return;
        event.stopImmediatePropagation();
        if (type !== 'keypress') keyHandlers.get(target)?.(event as KeyboardEvent);
      },
      { capture: true },
    );
  }
}

/** Marks a shadow host as ours: its key events stop at the host, and `onKey` sees its keydowns and keyups. */
export function isolateKeys(host: HTMLElement, onKey?: (event: KeyboardEvent) => void): void {
  hosts.add(host);
  if (onKey !== undefined) keyHandlers.set(host, onKey);
  for (const type of KEY_EVENTS) {
    host.addEventListener(type, (event) => {
      event.stopPropagation();
      if (type !== 'keypress') onKey?.(event as KeyboardEvent);
    });
  }
}
