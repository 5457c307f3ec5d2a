// `/mail`: the user's threads, newest first, with labels and unread state; Gmail's search syntax. The
// search box always reads the query the list shows (Back and Forward included); a row marks its thread
// read or unread.
import type { ConsoleMailbox } from '@threadwork/shared/schemas';
import { useEffect, useState } from 'preact/hooks';
import { call, useAction, useResource } from '../api.ts';
import { navigate, useLocation } from '../router.ts';
import { Failure, Loading, Time, useTitle } from './common.tsx';

export function MailPage() {
  const { query } = useLocation();
  const q = query.get('q') ?? '';
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useTitle(q ? `Mail: ${q}` : 'Mail');
  const view = useResource<ConsoleMailbox>(
    `mail?q=${encodeURIComponent(q)}`,
    (change) => change.topic === 'thread',
  );
  const { error, run } = useAction();
  const markRead = async (threadId: string, read: boolean) => {
    if (await run(() => call('POST', `mail/${encodeURIComponent(threadId)}/read-state`, { read }))) {
      view.reload();
    }
  };
  return (
    <section>
      <div class="page-head">
        <h1>Mail</h1>
        {view.data?.address && <p class="muted">{view.data.address}</p>}
      </div>
      <form
        class="search"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(text ? `/mail?q=${encodeURIComponent(text)}` : '/mail');
        }}
      >
        <label for="mail-q">Search mail</label>
        <input
          id="mail-q"
          type="search"
          value={text}
          placeholder="from:bob is:unread"
          onInput={(event) => setText((event.target as HTMLInputElement).value)}
        />
        <button type="submit">Search</button>
      </form>
      {view.error && <Failure error={view.error} />}
      {error && <Failure error={error} />}
      {!view.data && !view.error && <Loading />}
      {view.data && !view.data.connected && (
        <p class="error">The mailbox is not connected{view.data.reason ? ` (${view.data.reason})` : ''}.</p>
      )}
      {view.data?.connected && view.data.threads.length === 0 && <p class="muted">No threads match.</p>}
      {view.data && view.data.threads.length > 0 && (
        <ul class="threads">
          {view.data.threads.map((thread) => {
            const labels = ((thread as { labels?: string[] }).labels ?? []).filter(
              (label) => label !== 'UNREAD',
            );
            const labelName = (id: string) => view.data?.labels.find((label) => label.id === id)?.name ?? id;
            const subject = thread.subject ?? '(no subject)';
            return (
              <li
                key={thread.thread_id}
                data-testid="console-thread"
                data-thread-id={thread.thread_id}
                class={thread.unread ? 'unread' : ''}
              >
                <a href={`/mail/${encodeURIComponent(thread.thread_id)}`}>
                  <span class="who">{thread.participants.map((p) => p.name ?? p.email).join(', ')}</span>
                  <span class="subject">
                    {thread.unread && <span class="visually-hidden">Unread: </span>}
                    {subject}
                  </span>
                  <span class="snippet">{thread.snippet}</span>
                </a>
                <span class="labels">
                  {labels.map((label) => (
                    <span class="chip">{labelName(label)}</span>
                  ))}
                </span>
                <Time value={thread.latest_message_at} />
                <button
                  type="button"
                  class="link-button"
                  onClick={() => markRead(thread.thread_id, thread.unread)}
                >
                  {thread.unread ? 'Mark read' : 'Mark unread'}
                  <span class="visually-hidden"> {subject}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
