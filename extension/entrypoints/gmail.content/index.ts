import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { MailboxUi } from '../../components/MailboxUi.ts';
import { watchOpenThread } from '../../lib/gmail/watch.ts';
import { installCaptureGuard } from '../../lib/keyboard.ts';
import { createSend } from '../../lib/messaging.ts';
import { PANEL_CHUNK, panelLoader } from '../../lib/ui/panel-api.ts';

/**
 * The mailbox script uses the browser's own promise-based `runtime` (Chrome MV3, Firefox) through
 * `wxt/browser` for its calls; webextension-polyfill's 10 KB would break the script's 40 KB budget. The
 * panel (Preact and everything it shows) is its own chunk, imported on first open.
 * The background and the options page, which have no budget, use the polyfill.
 */
export default defineContentScript({
  matches: ['https://mail.google.com/*'],
  // Before the mailbox's own scripts: the keyboard guard must be the first capture listener on window.
  runAt: 'document_start',
  main() {
    installCaptureGuard(window);
    const start = () => {
      const ui = new MailboxUi(
        document,
        createSend(browser.runtime),
        panelLoader(browser.runtime.getURL(PANEL_CHUNK)),
      );
      watchOpenThread(
        document,
        (thread) => ui.show(thread),
        () => ui.isPlaced(),
      );
      browser.runtime.onMessage.addListener((message: unknown) => {
        if ((message as { type?: unknown } | null)?.type === 'panel.open') void ui.openPanel();
        return undefined;
      });
    };
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', start, { once: true });
    else start();
  },
});
