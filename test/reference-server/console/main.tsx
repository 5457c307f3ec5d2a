// The console: the service's web app, served by the reference server with --console (docs/console.md).
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { startLive, useLiveStatus } from './api.ts';
import { BoardPage } from './pages/Board.tsx';
import { useTitle } from './pages/common.tsx';
import { DeliveriesPage } from './pages/Deliveries.tsx';
import { KeysPage } from './pages/Keys.tsx';
import { MailPage } from './pages/Mail.tsx';
import { OverviewPage } from './pages/Overview.tsx';
import { TaskPage } from './pages/Task.tsx';
import { ThreadPage } from './pages/Thread.tsx';
import { interceptLinks, match, useLocation } from './router.ts';

const NAV = [
  { href: '/', label: 'Boards', pages: ['overview', 'board', 'task'] },
  { href: '/mail', label: 'Mail', pages: ['mail', 'thread'] },
  { href: '/deliveries', label: 'Deliveries', pages: ['deliveries'] },
  { href: '/keys', label: 'Keys', pages: ['keys'] },
];

const LIVE_LABELS = { live: 'Live', connecting: 'Reconnecting…', 'catching-up': 'Catching up…' } as const;

function Missing({ path }: { path: string }) {
  useTitle('Page not found');
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        No console page lives at <code>{path}</code>. <a href="/">Back to the boards</a>.
      </p>
    </section>
  );
}

function App() {
  const { path } = useLocation();
  const route = match(path);
  const live = useLiveStatus();
  useEffect(() => {
    const main = document.getElementById('main');
    // Moving between pages puts focus at the new page's start, as a page load would.
    if (main && document.activeElement !== document.body) main.focus({ preventScroll: true });
  }, [path]);
  return (
    <>
      {/* The browser's own: it scrolls to the page's main part and moves focus there. */}
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          Threadwork
        </a>
        <nav aria-label="Console">
          {NAV.map((item) => (
            <a href={item.href} aria-current={item.pages.includes(route.page) ? 'page' : undefined}>
              {item.label}
            </a>
          ))}
        </nav>
        <span class="live" data-state={live} role="status">
          {LIVE_LABELS[live]}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'overview' && <OverviewPage />}
        {route.page === 'board' && <BoardPage id={route.id} />}
        {route.page === 'task' && <TaskPage id={route.id} />}
        {route.page === 'mail' && <MailPage />}
        {route.page === 'thread' && <ThreadPage id={route.id} />}
        {route.page === 'deliveries' && <DeliveriesPage />}
        {route.page === 'keys' && <KeysPage />}
        {route.page === 'missing' && <Missing path={path} />}
      </main>
    </>
  );
}

// The stream is asked for before any page reads: a read that begins after it started needs no second.
startLive();
const root = document.getElementById('app')!;
interceptLinks(root);
render(<App />, root);
