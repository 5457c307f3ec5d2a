/**
 * The panel's frame: an extension page the mailbox script shows over the mailbox (lib/frame.ts). It runs in
 * the extension's origin, so no script of the mailbox page can read what it shows (the settings, a new key's
 * secret), and a click in it is the user's own, so it may ask the browser for access to the service.
 */
import { render } from 'preact';
import browser from 'webextension-polyfill';
import { type FrameHost, Panel } from '../../components/Panel.tsx';
import { STYLES } from '../../components/styles.ts';
import { prepareSetup } from '../../components/task/setup.ts';
import { loadDrafts } from '../../components/task/useDraft.ts';
import { type ShowMessage, showMessage } from '../../lib/frame.ts';
import { createSend } from '../../lib/messaging.ts';
import { browserAccess } from '../../lib/ui/access.ts';

/** The frame's page around the panel: no margin, the panel's own background edge to edge. */
const FRAME_PAGE_STYLES = `
html, body { margin: 0; background: var(--tw-bg); }
body { overflow-y: auto; }
`;

/**
 * The page that placed the frame is its parent. What it sends is checked field by field (showMessage): it is
 * the page's own text, as the mailbox script read it. The frame listens from its first moment and keeps the
 * last show for the panel, which subscribes once it is drawn.
 */
let lastShow: ShowMessage | null = null;
let onShow: ((message: ShowMessage) => void) | null = null;
window.addEventListener('message', (event) => {
  if (event.source !== window.parent) return;
  const message = showMessage(event.data);
  if (message === null) return;
  lastShow = message;
  onShow?.(message);
});
const host: FrameHost = {
  post: (message) => window.parent.postMessage(message, '*'),
  listen(listener) {
    onShow = listener;
    if (lastShow !== null) listener(lastShow);
    return () => {
      onShow = null;
    };
  },
};

const style = document.createElement('style');
style.textContent = `${STYLES}\n${FRAME_PAGE_STYLES}`;
document.head.append(style);

// Everything the first panel needs is asked for at once, while the page sends what to show.
const send = createSend(browser.runtime);
void loadDrafts(send);
prepareSetup(send);
host.post({ threadwork: 'ready' });
render(<Panel send={send} access={browserAccess} host={host} />, document.getElementById('app')!);
