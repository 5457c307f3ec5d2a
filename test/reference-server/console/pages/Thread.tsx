// `/mail/{thread_id}`: a thread's messages as text (never HTML), its linked tasks, read or unread, its
// labels, and "Simulate a reply".
// The subject heading (an h2 with data-legacy-thread-id) and the [gh=mtb] toolbar are laid out as the
// mailbox lays them out, so the extension's test build runs on this page too (docs/console.md).
import type { ConsoleThreadView } from '@threadwork/shared/schemas';
import { useEffect, useState } from 'preact/hooks';
import { call, useAction, useResource } from '../api.ts';
import { Failure, Loading, Time, useTitle } from './common.tsx';

/** The labels of a thread: those of its messages. */
function labelsOn(view: ConsoleThreadView | null): Set<string> {
  return new Set(view?.thread.messages?.flatMap((message) => message.labels) ?? []);
}

/** Labels a person puts on a thread by hand (Sent and Drafts come from sending; Unread is read state). */
const HAND_LABELS = new Set(['INBOX', 'STARRED', 'IMPORTANT']);

const DEFAULT_REPLY = 'Thanks, that works for us. (a reply simulated in the console)';

export function ThreadPage({ id }: { id: string }) {
  const view = useResource<ConsoleThreadView>(
    `mail/${encodeURIComponent(id)}`,
    (change) => change.topic === 'thread' || change.topic === 'task',
  );
  const [reply, setReply] = useState('');
  const { busy, error, run } = useAction();
  const change = useAction();
  const [status, setStatus] = useState('');
  // A label asked for is shown so until the thread, read again, shows it so (or the change fails).
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  useEffect(() => {
    const shown = labelsOn(view.data);
    setAsked((current) => {
      const waiting = Object.entries(current).filter(([label, on]) => shown.has(label) !== on);
      return waiting.length === Object.keys(current).length ? current : Object.fromEntries(waiting);
    });
  }, [view.data]);
  useTitle(view.data ? (view.data.thread.subject ?? '(no subject)') : 'Thread');

  async function threadChange(path: string, body: object, done: string, label?: string) {
    if (await change.run(() => call('POST', `mail/${encodeURIComponent(id)}/${path}`, body))) {
      setStatus(done);
      view.reload();
    } else if (label !== undefined) {
      setAsked(({ [label]: _, ...rest }) => rest);
    }
  }

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
  const onThread = labelsOn(view.data);
  const choosable = labels.filter((label) => HAND_LABELS.has(label.id) || label.type === 'user');
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
          <button
            type="button"
            disabled={change.busy}
            onClick={() =>
              threadChange(
                'read-state',
                { read: thread.unread },
                thread.unread ? 'Marked as read.' : 'Marked as unread.',
              )
            }
          >
            {thread.unread ? 'Mark as read' : 'Mark as unread'}
          </button>
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
          <fieldset class="options">
            <legend>Labels</legend>
            {choosable.map((label) => (
              <label key={label.id}>
                <input
                  type="checkbox"
                  checked={asked[label.id] ?? onThread.has(label.id)}
                  onChange={(event) => {
                    const on = (event.target as HTMLInputElement).checked;
                    setAsked((current) => ({ ...current, [label.id]: on }));
                    void threadChange(
                      'labels',
                      on ? { add: [label.id] } : { remove: [label.id] },
                      `${on ? 'Labelled' : 'Unlabelled'} ${label.name ?? label.id}.`,
                      label.id,
                    );
                  }}
                />{' '}
                {label.name ?? label.id}
              </label>
            ))}
          </fieldset>
          {change.error && <Failure error={change.error} />}
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
