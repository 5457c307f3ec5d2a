// A small router over the History API: the path is state, links are ordinary <a href> (so the browser's
// own open-in-new-tab, middle click and keyboard work), and a plain left click navigates in place. Each
// history entry keeps its scroll position, given back on Back and Forward once the page has drawn.
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

// The router restores scroll itself: the browser would restore it before the page's data has arrived.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

function rememberScroll(): void {
  history.replaceState({ ...(history.state as object | null), scroll: window.scrollY }, '');
}

export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  rememberScroll();
  history.pushState({ scroll: 0 }, '', path);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

let restoring = 0;

/** Scrolls back to `y` as soon as the page is tall enough (its data may still be on its way), for 3 s. */
function restoreScroll(y: number): void {
  const mine = ++restoring;
  const until = performance.now() + 3000;
  const attempt = () => {
    if (mine !== restoring) return;
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 1 && performance.now() < until) requestAnimationFrame(attempt);
  };
  attempt();
}

window.addEventListener('popstate', () => {
  // A link within the page (`#main`) is the browser's own scroll.
  if (history.state === null && location.hash) return;
  restoreScroll((history.state as { scroll?: number } | null)?.scroll ?? 0);
});
// A scroll made by the person stops a restore still under way.
window.addEventListener('wheel', () => restoring++, { passive: true });
window.addEventListener('keydown', () => restoring++);
window.addEventListener('pagehide', rememberScroll);

/** The current path and query; re-renders on navigation and on the browser's back and forward. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((tick) => tick + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** Same-origin links navigate in place on a plain left click; everything else is the browser's. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/_console/')) return;
    // A link within this page (`#main`) is the browser's.
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}

export type Route =
  | { page: 'overview' }
  | { page: 'board'; id: string }
  | { page: 'task'; id: string }
  | { page: 'mail' }
  | { page: 'thread'; id: string }
  | { page: 'deliveries' }
  | { page: 'keys' }
  | { page: 'missing' };

/** The console's pages (the server serves the same paths: src/console/routes.ts). */
export function match(path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second] = parts;
  if (parts.length === 0) return { page: 'overview' };
  if (parts.length === 2 && first === 'boards') return { page: 'board', id: second! };
  if (parts.length === 2 && first === 'tasks') return { page: 'task', id: second! };
  if (parts.length === 1 && first === 'mail') return { page: 'mail' };
  if (parts.length === 2 && first === 'mail') return { page: 'thread', id: second! };
  if (parts.length === 1 && first === 'deliveries') return { page: 'deliveries' };
  if (parts.length === 1 && first === 'keys') return { page: 'keys' };
  return { page: 'missing' };
}
