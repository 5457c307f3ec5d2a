// `/tasks/{id}`: every field of the v2 Task, and the card's back: completed, shade, list, assignee and
// each custom field (an editor for its kind) changed in place, archive and delete with a confirmation;
// linked threads and the task's events. Every change goes through the server's domain, and the page
// reads the task again after each (it also follows the live feed).
import type { ConsoleTaskView, CustomField } from '@threadwork/shared/schemas';
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { type ApiError, call, type Loaded, useResource } from '../api.ts';
import { navigate } from '../router.ts';
import { fieldText } from './Board.tsx';
import {
  ConfirmButton,
  Failure,
  FieldError,
  Loading,
  shadeLabel,
  Time,
  useAsked,
  useTitle,
} from './common.tsx';

function Row({ name, children, labelFor }: { name: string; children: ComponentChildren; labelFor?: string }) {
  return (
    <div class="row">
      <dt>{labelFor ? <label for={labelFor}>{name}</label> : name}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const none = <span class="muted">—</span>;

/** Runs one change and reads the task again; `report`: show a failure at the page's head too. */
type Save = (work: () => Promise<unknown>, done: string, report?: boolean) => Promise<ApiError | null>;

export function TaskPage({ id }: { id: string }) {
  const boardId = useRef<string | null>(null);
  const view: Loaded<ConsoleTaskView> = useResource<ConsoleTaskView>(
    `tasks/${encodeURIComponent(id)}`,
    (change) =>
      (change.topic === 'task' && change.task_id === id) ||
      // Its board's lists, fields and name; its threads' subjects.
      (change.topic === 'board' && change.board_id === boardId.current) ||
      change.topic === 'thread',
  );
  boardId.current = view.data?.task.board_id ?? null;
  const [status, setStatus] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  useTitle(view.data ? view.data.task.title : view.error?.status === 404 ? 'Task not found' : 'Task');

  /** One change; the page reads the task again after it, whatever the feed says. */
  const save: Save = async (work, done, report = true) => {
    setError(null);
    try {
      await work();
      // Shown once the task is read again: a box ticked stays ticked meanwhile.
      await view.reload();
      setStatus(done);
      return null;
    } catch (failure) {
      if (report) setError(failure as ApiError);
      return failure as ApiError;
    }
  };

  // What the four controls at the top were set to, shown until the task is read again.
  const shown = view.data?.task;
  const [completed, askCompleted] = useAsked(shown?.completed ?? false);
  const [shade, askShade] = useAsked(shown?.shade ?? 'none');
  const [listId, askList] = useAsked(shown?.list_id ?? '');
  const [assignee, askAssignee] = useAsked(shown?.assignee?.email ?? '');

  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { task, archived_at, custom_fields, lists, members, shades, threads, events } = view.data;
  const path = `tasks/${encodeURIComponent(task.id)}`;
  const patch = (body: object, done: string, report = true) =>
    save(() => call('PATCH', path, body), done, report);

  async function remove() {
    const failure = await save(() => call('DELETE', path), 'Deleted.');
    if (!failure) navigate(task.board_id ? `/boards/${encodeURIComponent(task.board_id)}` : '/');
  }

  return (
    <section>
      <div class="page-head">
        <p class="crumbs">
          {task.board_id && <a href={`/boards/${encodeURIComponent(task.board_id)}`}>{task.board_name}</a>}
          {task.list_name && <> / {task.list_name}</>}
        </p>
        <h1 data-testid="console-task-title">{task.title}</h1>
        {archived_at && (
          <p class="notice" data-archived="">
            Archived <Time value={archived_at} withTime />: it no longer shows on its list.
          </p>
        )}
        {view.error && <Failure error={view.error} />}
        {error && <Failure error={error} />}
        <p class="visually-hidden" role="status" aria-live="polite">
          {status}
        </p>
      </div>
      <div class="split">
        <section aria-labelledby="fields">
          <h2 id="fields">Fields</h2>
          <dl class="fields">
            <Row name="Id">
              <code>{task.id}</code>
            </Row>
            <Row name="Type">{task.content_type}</Row>
            <Row name="Completed" labelFor="task-completed">
              <input
                id="task-completed"
                type="checkbox"
                checked={completed}
                onChange={(event) => {
                  const next = (event.target as HTMLInputElement).checked;
                  void askCompleted(next, () =>
                    save(
                      () => call('POST', `${path}/complete`, { completed: next }),
                      next ? 'Completed.' : 'Reopened.',
                    ),
                  );
                }}
              />{' '}
              {completed ? 'Yes' : 'No'}
            </Row>
            <Row name="Shade" labelFor="task-shade">
              <select
                id="task-shade"
                value={shade}
                onChange={(event) => {
                  const next = (event.target as HTMLSelectElement).value;
                  void askShade(next, () => patch({ shade: next }, `Shade: ${shadeLabel(next)}.`));
                }}
              >
                {shades.map((option) => (
                  <option value={option}>{shadeLabel(option)}</option>
                ))}
              </select>
            </Row>
            <Row name="Board">{task.board_name ?? none}</Row>
            <Row name="List" labelFor="task-list">
              {lists.length === 0 ? (
                (task.list_name ?? none)
              ) : (
                <select
                  id="task-list"
                  value={listId}
                  onChange={(event) => {
                    const next = (event.target as HTMLSelectElement).value;
                    const name = lists.find((list) => list.id === next)?.name ?? next;
                    void askList(next, () =>
                      save(() => call('POST', `${path}/move`, { list_id: next }), `Moved to ${name}.`),
                    );
                  }}
                >
                  {lists.map((list) => (
                    <option value={list.id}>{list.name}</option>
                  ))}
                </select>
              )}
            </Row>
            <Row name="Assignee" labelFor="task-assignee">
              <select
                id="task-assignee"
                value={assignee}
                onChange={(event) => {
                  const email = (event.target as HTMLSelectElement).value;
                  void askAssignee(email, () =>
                    save(
                      () => call('POST', `${path}/assignee`, { email: email === '' ? null : email }),
                      email === '' ? 'Unassigned.' : `Assigned to ${email}.`,
                    ),
                  );
                }}
              >
                <option value="">Nobody</option>
                {members.map((member) => (
                  <option value={member.email}>
                    {member.display_name ? `${member.display_name} <${member.email}>` : member.email}
                  </option>
                ))}
              </select>
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
          <h2 id="custom-fields">Custom fields</h2>
          {custom_fields.length === 0 ? (
            <p class="muted">This board has no custom fields.</p>
          ) : (
            <dl class="fields custom" aria-labelledby="custom-fields">
              {custom_fields.map((field) => (
                <FieldEditor
                  key={field.id}
                  field={field}
                  value={task.custom_fields.find((value) => value.field_id === field.id)?.value ?? null}
                  onSave={(value) =>
                    patch({ custom_fields: [{ field_id: field.id, value }] }, `${field.name} saved.`, false)
                  }
                />
              ))}
            </dl>
          )}
          <h2>Archive or delete</h2>
          <p class="actions">
            {archived_at === null && (
              <ConfirmButton
                label="Archive"
                confirmLabel="Confirm archive"
                what={`task ${task.title}`}
                onConfirm={() => save(() => call('POST', `${path}/archive`), 'Archived.')}
              />
            )}{' '}
            <ConfirmButton
              label="Delete"
              confirmLabel="Confirm delete"
              what={`task ${task.title}`}
              onConfirm={() => void remove()}
            />
          </p>
          <p class="muted small">
            An archived task leaves its list but stays here; a deleted one is gone. Each records its event
            (task.archived, task.deleted) and fires webhooks as the API does.
          </p>
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

type FieldValue = string | number | boolean | string[] | null;

/** The input a field of a one-line kind is typed into. */
const INPUT_TYPES: Record<string, 'number' | 'date' | 'url' | 'tel'> = {
  number: 'number',
  date: 'date',
  url: 'url',
  phone: 'tel',
};

/**
 * One custom field, edited as its kind asks: a box for text, url, phone, number and date (saved on
 * Enter or on leaving it), a text area with Save, a checkbox, a list of options (one, or several for
 * tags and multi-selects). The AI's fields are shown, not edited. What was typed stays when the server
 * refuses it, with its reason beside it.
 */
function FieldEditor({
  field,
  value: stored,
  onSave,
}: {
  field: CustomField;
  value: unknown;
  onSave(value: FieldValue): Promise<ApiError | null>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  // A box ticked or an option chosen shows so until the task is read again.
  const [value, ask] = useAsked(stored);
  const id = `field-${field.id}`;
  const errorId = `${id}-error`;
  const described = error ? { 'aria-invalid': 'true' as const, 'aria-describedby': errorId } : {};
  async function save(next: FieldValue) {
    await ask(next, async () => {
      const failure = await onSave(next);
      setError(failure);
      if (!failure) setDraft(null);
    });
  }
  const options = field.options ?? [];
  const chosen = Array.isArray(value) ? (value as string[]) : [];
  const shown = value === null || value === undefined ? '' : String(value);
  let editor: ComponentChildren;
  if (field.ai) {
    editor = (
      <>
        {fieldText(field, value) || none} <span class="muted small">(set by the AI)</span>
      </>
    );
  } else if (field.type === 'checkbox') {
    editor = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onChange={(event) => save((event.target as HTMLInputElement).checked)}
        {...described}
      />
    );
  } else if (field.type === 'select' || field.type === 'status') {
    editor = (
      <select
        id={id}
        value={chosen[0] ?? ''}
        onChange={(event) => {
          const option = (event.target as HTMLSelectElement).value;
          void save(option === '' ? null : [option]);
        }}
        {...described}
      >
        <option value="">—</option>
        {options.map((option) => (
          <option value={option.id}>{option.label}</option>
        ))}
      </select>
    );
  } else if (field.type === 'tag' || field.type === 'multiselect') {
    return (
      <div class="row">
        <dt id={`${id}-name`}>{field.name}</dt>
        <dd>
          <fieldset class="options" aria-labelledby={`${id}-name`} {...described}>
            {options.map((option) => (
              <label key={option.id}>
                <input
                  type="checkbox"
                  checked={chosen.includes(option.id)}
                  onChange={(event) =>
                    save(
                      (event.target as HTMLInputElement).checked
                        ? [...chosen, option.id]
                        : chosen.filter((entry) => entry !== option.id),
                    )
                  }
                />{' '}
                {option.label}
              </label>
            ))}
          </fieldset>
          <FieldError id={errorId} error={error} field="custom_fields[0].value" />
        </dd>
      </div>
    );
  } else {
    const text = draft ?? (field.type === 'date' ? shown.slice(0, 10) : shown);
    const parse = (typed: string): FieldValue => {
      if (typed.trim() === '') return null;
      if (field.type === 'number') return Number(typed);
      return typed;
    };
    const commit = () => {
      if (draft === null || draft === (field.type === 'date' ? shown.slice(0, 10) : shown)) return;
      void save(parse(draft));
    };
    const inputType = INPUT_TYPES[field.type] ?? 'text';
    editor =
      field.type === 'multiline_text' ? (
        <>
          <textarea
            id={id}
            rows={3}
            value={text}
            onInput={(event) => setDraft((event.target as HTMLTextAreaElement).value)}
            {...described}
          />
          <button type="button" disabled={draft === null} onClick={commit}>
            Save<span class="visually-hidden"> {field.name}</span>
          </button>
        </>
      ) : (
        <input
          id={id}
          // Preact types each input type apart; the union of them is one of them at run time.
          type={inputType as 'text'}
          step={field.type === 'number' ? 'any' : undefined}
          value={text}
          onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            } else if (event.key === 'Escape') {
              setDraft(null);
              setError(null);
            }
          }}
          {...described}
        />
      );
  }
  return (
    <div class="row">
      <dt>{field.ai ? field.name : <label for={id}>{field.name}</label>}</dt>
      <dd>
        {editor}
        <FieldError id={errorId} error={error} field="custom_fields[0].value" />
      </dd>
    </div>
  );
}
