// `/tasks/{id}`: every field of the v2 Task, custom values with their labels, linked threads, events.
import type { ConsoleTaskView } from '@threadwork/shared/schemas';
import type { ComponentChildren } from 'preact';
import { useResource } from '../api.ts';
import { fieldText } from './Board.tsx';
import { Failure, Loading, shadeLabel, Time } from './common.tsx';

function Row({ name, children }: { name: string; children: ComponentChildren }) {
  return (
    <div class="row">
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const none = <span class="muted">—</span>;

export function TaskPage({ id }: { id: string }) {
  const view = useResource<ConsoleTaskView>(
    `tasks/${encodeURIComponent(id)}`,
    (change) => (change.topic === 'task' && change.task_id === id) || change.topic === 'thread',
  );
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { task, custom_fields, threads, events } = view.data;
  return (
    <section>
      <div class="page-head">
        <p class="crumbs">
          {task.board_id && <a href={`/boards/${encodeURIComponent(task.board_id)}`}>{task.board_name}</a>}
          {task.list_name && <> / {task.list_name}</>}
        </p>
        <h1 data-testid="console-task-title">{task.title}</h1>
        {view.error && <Failure error={view.error} />}
      </div>
      <div class="split">
        <section aria-labelledby="fields">
          <h2 id="fields">Fields</h2>
          <dl class="fields">
            <Row name="Id">
              <code>{task.id}</code>
            </Row>
            <Row name="Type">{task.content_type}</Row>
            <Row name="Completed">{task.completed ? 'Yes' : 'No'}</Row>
            <Row name="Shade">{shadeLabel(task.shade)}</Row>
            <Row name="Board">{task.board_name ?? none}</Row>
            <Row name="List">{task.list_name ?? none}</Row>
            <Row name="Assignee">
              {task.assignee
                ? `${task.assignee.name ?? ''} ${task.assignee.email ? `<${task.assignee.email}>` : ''}`
                : none}
            </Row>
            <Row name="Due">
              <Time value={task.due_at} withTime />
            </Row>
            <Row name="Created">
              <Time value={task.created_at} withTime />
            </Row>
            <Row name="Notes">{task.notes ? <p class="text">{task.notes}</p> : none}</Row>
            <Row name="Contact">{task.contact_id ?? none}</Row>
            <Row name="Deal">
              {task.deal
                ? [
                    task.deal.value !== null ? `value ${task.deal.value}` : null,
                    task.deal.source ? `source ${task.deal.source}` : null,
                    task.deal.close_date ? `closes ${task.deal.close_date.slice(0, 10)}` : null,
                    task.deal.loss_reason ? `lost: ${task.deal.loss_reason}` : null,
                  ]
                    .filter(Boolean)
                    .join(' · ') || 'no details'
                : none}
            </Row>
            <Row name="First thread">
              {task.first_thread
                ? `${task.first_thread.title ?? '(no subject)'}${task.first_thread.from ? ` — from ${task.first_thread.from}` : ''}`
                : none}
            </Row>
          </dl>
          <h2>Custom fields</h2>
          {custom_fields.length === 0 ? (
            <p class="muted">This board has no custom fields.</p>
          ) : (
            <dl class="fields">
              {custom_fields.map((field) => {
                const text = fieldText(
                  field,
                  task.custom_fields.find((value) => value.field_id === field.id)?.value,
                );
                return (
                  <Row key={field.id} name={field.name}>
                    {text || none}
                  </Row>
                );
              })}
            </dl>
          )}
        </section>
        <section aria-labelledby="threads">
          <h2 id="threads">Linked threads</h2>
          {threads.length === 0 ? (
            <p class="muted">No linked threads.</p>
          ) : (
            <ul>
              {threads.map((thread) => (
                <li key={thread.thread_id}>
                  {thread.in_mailbox ? (
                    <a href={`/mail/${encodeURIComponent(thread.thread_id)}`}>
                      {thread.subject ?? '(no subject)'}
                    </a>
                  ) : (
                    <span>
                      <code>{thread.thread_id}</code> <span class="muted">(not in this mailbox)</span>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          <h2>Events</h2>
          {events.length === 0 ? (
            <p class="muted">No events recorded.</p>
          ) : (
            <ol class="events">
              {events.map((event) => (
                <li key={event.id}>
                  <code>{event.type}</code>
                  {event.changed ? <span class="muted"> ({event.changed.join(', ')})</span> : null}{' '}
                  <Time value={event.created_at} withTime />
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </section>
  );
}
