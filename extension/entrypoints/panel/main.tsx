/**
 * The panel's frame: an extension page the mailbox script shows over the mailbox (lib/frame.ts). It runs in
 * the extension's origin, so no script of the mailbox page can read what it shows (the settings, a new key's
 * secret), and a click in it is the user's own, so it may ask the browser for access to the service.
 */
import { render } from 'preact';
import browser from 'webextension-polyfill';
import { z } from 'zod';
import { type FrameHost, Panel } from '../../components/Panel.tsx';
import { STYLES } from '../../components/styles.ts';
import { loadDrafts } from '../../components/task/useDraft.ts';
import { showMessage } from '../../lib/frame.ts';
import { createSend } from '../../lib/messaging.ts';
import { browserAccess } from '../../lib/ui/access.ts';

// No `new Function` in extension pages (CSP): zod validates without compiling.
z.config({ jitless: true });

/** The frame's page around the panel: no margin, the panel's own background edge to edge. */
const FRAME_PAGE_STYLES = `
html, body { margin: 0; background: var(--tw-bg); }
body { overflow-y: auto; }
`;

/**
 * The page that placed the frame is its parent. What it sends is checked field by field (showMessage):
 * it is the page's own text, as the mailbox script read it.
 */
const host: FrameHost = {
  post: (message) => window.parent.postMessage(message, '*'),
  listen(onShow) {
    const listener = (event: MessageEvent) => {
      if (event.source !== window.parent) return;
      const message = showMessage(event.data);
      if (message !== null) onShow(message);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  },
};

const style = document.createElement('style');
style.textContent = `${STYLES}\n${FRAME_PAGE_STYLES}`;
document.head.append(style);

const send = createSend(browser.runtime);
// The kept drafts are read before the first panel shows, so a thread's draft is there when it opens.
void loadDrafts(send).then(() => {
  render(<Panel send={send} access={browserAccess} host={host} />, document.getElementById('app')!);
});
