import { WATCHED_ATTRIBUTES } from './selectors.ts';
import { detectOpenThread, type OpenThread } from './thread.ts';

/**
 * Follows the single-page mailbox: calls `onChange` whenever the open thread or its toolbar changes (a thread
 * opens, the user goes back to the list, Gmail re-renders the toolbar). A MutationObserver schedules one
 * detection per microtask batch, so the button follows within the same frame as the page's change.
 */
export function watchOpenThread(
  document: Document,
  onChange: (thread: OpenThread | null) => void,
  /** False when the page removed what was placed for the current thread (Gmail re-rendered its toolbar). */
  isPlaced: () => boolean = () => true,
): () => void {
  let current: OpenThread | null = null;
  let scheduled = false;
  let stopped = false;

  const check = () => {
    scheduled = false;
    if (stopped) return;
    const next = detectOpenThread(document);
    const same =
      next?.id === current?.id && next?.heading === current?.heading && next?.toolbar === current?.toolbar;
    current = next;
    if (!same || !isPlaced()) onChange(next);
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(check);
  };

  const observer = new MutationObserver((records) => {
    // Our own injected hosts changing never changes the thread.
    if (records.every((record) => isOwnMutation(record))) return;
    schedule();
  });
  observer.observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: [...WATCHED_ATTRIBUTES],
  });
  const view = document.defaultView;
  view?.addEventListener('hashchange', schedule);
  view?.addEventListener('popstate', schedule);
  check();

  return () => {
    stopped = true;
    observer.disconnect();
    view?.removeEventListener('hashchange', schedule);
    view?.removeEventListener('popstate', schedule);
  };
}

/** The attribute every element the extension inserts in the page carries. */
export const HOST_ATTRIBUTE = 'data-threadwork-host';

function isOwnMutation(record: MutationRecord): boolean {
  const target = record.target;
  if (target.nodeType === 1 && (target as Element).hasAttribute(HOST_ATTRIBUTE)) return true;
  if (record.type !== 'childList') return false;
  const nodes = [...Array.from(record.addedNodes), ...Array.from(record.removedNodes)];
  return (
    nodes.length > 0 &&
    nodes.every((node) => node.nodeType === 1 && (node as Element).hasAttribute(HOST_ATTRIBUTE))
  );
}
