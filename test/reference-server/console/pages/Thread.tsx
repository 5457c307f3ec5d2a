// `/mail/{thread_id}`: a thread's messages as text (never HTML), its linked tasks, and "Simulate a reply".
// The subject heading (an h2 with data-legacy-thread-id) and the [gh=mtb] toolbar are laid out as the
// mailbox lays them out, so the extension's test build runs on this page too (docs/console.md).
import type { ConsoleThreadView } from '@threadwork/shared/schemas';
import { useState } from 'preact/hooks';
import { call, useAction, useResource } from '../api.ts';
import { Failure, Loading, Time } from './common.tsx';

const DEFAULT_REPLY = 'Thanks, that works for us. (a reply simulated in the console)';

export function ThreadPage({ id }: { id: string }) {
  const view = useResource<ConsoleThreadView>(
    `mail/${encodeURIComponent(id)}`,
    (change) => change.topic === 'thread' || change.topic === 'task',
  );
  const [reply, setReply] = useState('');
  const { busy, error, run } = useAction();
  const [status, setStatus] = useState('');

  async function simulate() {
    const arrived = await run(() =>
      call('POST', `mail/${encodeURIComponent(id)}/inbound`, { body_text: reply.trim() || DEFAULT_REPLY }),
    );
    if (!arrived) return;
    setReply('');
    setStatus('A reply arrived.');
    view.reload();
  }

  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { thread, linked_tasks, labels } = view.data;
  const labelName = (id: string) => labels.find((label) => label.id === id)?.name ?? id;
  const messages = (thread.messages ?? []) as (NonNullable<typeof thread.messages>[number] & {
    has_html?: boolean;
  })[];
  return (
    <section class="thread">
      <div {...{ gh: 'tm' }} class="toolbar-row">
        <div {...{ gh: 'mtb' }} role="toolbar" aria-label="Conversation" class="toolbar">
          <a href="/mail" class="button">
            Back to mail
          </a>
        </div>
      </div>
      <h2 class="subject" data-legacy-thread-id={thread.thread_id}>
        {thread.subject ?? '(no subject)'}
      </h2>
      <div class="split">
        <section aria-label="Messages">
          <ol class="messages">
            {messages.map((message) => (
              <li key={message.id} class={message.unread ? 'unread' : ''}>
                <div class="message-head">
                  <strong>{message.from.name ?? message.from.email}</strong>{' '}
                  <span class="muted">&lt;{message.from.email}&gt;</span>
                  <Time value={message.date} withTime />
                </div>
                <p class="muted to">to {message.to.map((to) => to.name ?? to.email).join(', ') || '—'}</p>
                <p class="labels">
                  {message.labels.map((label) => (
                    <span class="chip">{labelName(label)}</span>
                  ))}
                </p>
                <div class="text">{message.body_text ?? message.snippet ?? ''}</div>
                {message.has_html && !message.body_text && (
                  <p class="muted">This message has only an HTML body, which the console does not show.</p>
                )}
              </li>
            ))}
          </ol>
        </section>
        <aside aria-labelledby="linked">
          <h3 id="linked">Linked tasks</h3>
          {linked_tasks.length === 0 ? (
            <p class="muted">No task is linked to this thread.</p>
          ) : (
            <ul>
              {linked_tasks.map((task) => (
                <li key={task.id}>
                  <a href={`/tasks/${encodeURIComponent(task.id)}`}>{task.title ?? task.id}</a>
                </li>
              ))}
            </ul>
          )}
          <h3>Simulate a reply</h3>
          <p class="muted">
            Mail arrives from the thread's other party, as the provider would deliver it (fires
            thread.reply_received).
          </p>
          <label for="reply-text">Reply text</label>
          <textarea
            id="reply-text"
            rows={4}
            value={reply}
            placeholder={DEFAULT_REPLY}
            onInput={(event) => setReply((event.target as HTMLTextAreaElement).value)}
          />
          <button type="button" data-testid="console-inbound" disabled={busy} onClick={simulate}>
            Simulate a reply
          </button>
          <p role="status">{status}</p>
          {error && <Failure error={error} />}
        </aside>
      </div>
    </section>
  );
}
