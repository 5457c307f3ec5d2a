import { defineContentScript } from 'wxt/utils/define-content-script';
import { startMailbox } from '../../components/MailboxUi.ts';
import { installCaptureGuard } from '../../lib/keyboard.ts';

/**
 * The script on every mailbox page: the button, the thread watcher, the keyboard guard and the panel's frame
 * (whose page, an extension page, holds the panel itself). It uses the browser's own promise-based
 * `runtime` through `wxt/browser`; webextension-polyfill's 10 KB would weigh on the script's 40 KB budget.
 *
 * Everything it starts ends with its context (`ctx`): when the extension is updated, reloaded or removed under
 * an open mailbox, the old script's watcher, listeners, button and frame go, and only the new one works.
 */
export default defineContentScript({
  matches: ['https://mail.google.com/*'],
  // Before the mailbox's own scripts: the keyboard guard must be the first capture listener on window.
  runAt: 'document_start',
  main(ctx) {
    installCaptureGuard(ctx, window);
    if (document.readyState === 'loading')
      ctx.addEventListener(document, 'DOMContentLoaded', () => startMailbox(ctx, document), { once: true });
    else startMailbox(ctx, document);
  },
});
