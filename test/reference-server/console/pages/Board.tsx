// `/boards/{id}`: lists as columns, tasks as cards in position order. Every change goes to the server,
// which makes it through the domain (events and webhooks fire as for an API call); the page then shows
// what the server answers and what the live feed says, never a guess of its own.
import type {
  ConsoleBoardList,
  ConsoleBoardView,
  ConsoleTaskPage,
  CustomField,
  Task,
} from '@threadwork/shared/schemas';
import { useRef, useState } from 'preact/hooks';
import { type ApiError, call, readNumber, useChanges, useResource } from '../api.ts';
import { Failure, FieldError, InlineRename, Loading, shadeLabel, Time, useTitle } from './common.tsx';

type Placement = { list_id: string; after_task_id: string | null };

export function BoardPage({ id }: { id: string }) {
  // A new or renamed list (or board) reloads the board; task changes reload only their lists (below).
  // Per list, the number of the read its cards come from: a list is read alone (after a change) and with
  // the board, and whichever answer arrives last, the cards shown are those of the latest-sent read.
  const shownRead = useRef(new Map<string, number>());
  const isNewest = (listId: string, read: number) => {
    if ((shownRead.current.get(listId) ?? 0) > read) return false;
    shownRead.current.set(listId, read);
    return true;
  };
  const view = useResource<ConsoleBoardView>(
    `boards/${encodeURIComponent(id)}`,
    (change) => change.topic === 'board' && change.board_id === id,
    (shown, answer, read) => ({
      ...answer,
      lists: answer.lists.map((entry) => {
        const kept = shown.lists.find((old) => old.list.id === entry.list.id);
        return kept && !isNewest(entry.list.id, read)
          ? { ...entry, tasks: kept.tasks, next_cursor: kept.next_cursor }
          : entry;
      }),
    }),
  );
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState('');

  useTitle(view.data ? view.data.board.name : 'Board');
  const listIds = new Set(view.data?.lists.map((entry) => entry.list.id));

  // A change on this board (or a card moved off it) reloads only the lists it touched, as far as each
  // had been loaded.
  useChanges(
    (change) =>
      change.topic === 'task' &&
      (change.board_id === id || (change.from_list_id !== undefined && listIds.has(change.from_list_id))),
    (changes) => {
      const lists = new Set<string>();
      for (const change of changes) {
        if (change.topic !== 'task') continue;
        lists.add(change.list_id);
        if (change.from_list_id) lists.add(change.from_list_id);
      }
      for (const listId of lists) if (listIds.has(listId)) void reloadList(listId);
    },
  );

  async function reloadList(listId: string) {
    const current = view.data?.lists.find((entry) => entry.list.id === listId);
    if (!current) return view.reload();
    const count = Math.max(50, current.tasks.length);
    const read = readNumber();
    let page: ConsoleTaskPage;
    try {
      page = await call<ConsoleTaskPage>('GET', `lists/${encodeURIComponent(listId)}/tasks?count=${count}`);
    } catch {
      // The list could not be read again: the whole board is, which shows its error if it fails too,
      // rather than leave this list as it was with nothing said.
      return view.reload();
    }
    view.setData((data) =>
      isNewest(listId, read)
        ? {
            ...data,
            lists: data.lists.map((entry) => (entry.list.id === listId ? { ...entry, ...page } : entry)),
          }
        : data,
    );
  }

  async function loadMore(listId: string) {
    const current = view.data?.lists.find((entry) => entry.list.id === listId);
    if (!current?.next_cursor) return;
    const page = await call<ConsoleTaskPage>(
      'GET',
      `lists/${encodeURIComponent(listId)}/tasks?cursor=${encodeURIComponent(current.next_cursor)}`,
    );
    view.setData((data) => ({
      ...data,
      lists: data.lists.map((entry) =>
        entry.list.id === listId
          ? { ...entry, tasks: [...entry.tasks, ...page.tasks], next_cursor: page.next_cursor }
          : entry,
      ),
    }));
  }

  /**
   * Runs one change; on success the lists it touched reload at once (a reorder, say, records no event,
   * and the page shows what the server holds, not its own guess). Answers the failure, if any.
   */
  async function act(
    work: () => Promise<unknown>,
    done: string,
    lists: string[],
    report = true,
  ): Promise<ApiError | null> {
    setError(null);
    try {
      await work();
      setStatus(done);
      await Promise.all([...new Set(lists)].map((listId) => reloadList(listId)));
      return null;
    } catch (failure) {
      // A failure the change's own control shows (beside a title box) is not repeated at the top.
      if (report) setError(failure as ApiError);
      return failure as ApiError;
    }
  }

  /** A change of the board or its lists: the whole board is read again. */
  async function change(work: () => Promise<unknown>, done: string): Promise<ApiError | null> {
    try {
      await work();
      await view.reload();
      setStatus(done);
      return null;
    } catch (failure) {
      return failure as ApiError;
    }
  }

  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { board, lists, custom_fields, shades } = view.data;

  const place = async (task: Task, target: Placement) => {
    await placeTask(task, target);
    // The card may have been drawn anew in another list: keyboard focus follows it.
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(`[data-task-id="${CSS.escape(task.id)}"] [data-move-handle]`)
        ?.focus(),
    );
  };

  const placeTask = (task: Task, target: Placement) => {
    const from = task.list_id!;
    if (target.list_id === from) {
      const body = target.after_task_id ? { after_task_id: target.after_task_id } : { position: 'top' };
      return act(() => call('POST', `tasks/${task.id}/reorder`, body), `Moved “${task.title}”.`, [from]);
    }
    const body = target.after_task_id
      ? { list_id: target.list_id, after_task_id: target.after_task_id }
      : { list_id: target.list_id, position: 'top' };
    const listName = lists.find((entry) => entry.list.id === target.list_id)?.list.name ?? '';
    return act(() => call('POST', `tasks/${task.id}/move`, body), `Moved “${task.title}” to ${listName}.`, [
      from,
      target.list_id,
    ]);
  };

  return (
    <section class="board" data-testid="console-board" data-board-id={board.id}>
      <div class="page-head">
        <h1>
          <InlineRename
            name={board.name}
            what={`board ${board.name}`}
            onSave={(name) =>
              change(
                () => call('PATCH', `boards/${encodeURIComponent(board.id)}`, { name }),
                `Renamed the board.`,
              )
            }
          />
        </h1>
        <p class="muted" id="board-help">
          {board.board_type} board · drag a card by its handle (⠿) anywhere on a list, or focus the handle and
          press the arrow keys; on a card's title, the arrow keys go from card to card and list to list
        </p>
      </div>
      {error && <Failure error={error} />}
      <p class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      <div class="columns">
        {lists.map((entry, index) => (
          <ListColumn
            key={entry.list.id}
            entry={entry}
            left={lists[index - 1]?.list.id ?? null}
            right={lists[index + 1]?.list.id ?? null}
            lists={lists}
            fields={custom_fields}
            shades={shades}
            onCreate={(title) =>
              act(
                () => call('POST', 'tasks', { list_id: entry.list.id, title }),
                `Added “${title}”.`,
                [entry.list.id],
                false,
              )
            }
            onComplete={(task) =>
              act(
                () => call('POST', `tasks/${task.id}/complete`, { completed: !task.completed }),
                task.completed ? `Reopened “${task.title}”.` : `Completed “${task.title}”.`,
                [entry.list.id],
              )
            }
            onShade={(task, shade) =>
              act(
                () => call('PATCH', `tasks/${task.id}`, { shade }),
                `Shade of “${task.title}”: ${shadeLabel(shade)}.`,
                [entry.list.id],
              )
            }
            onPlace={place}
            onMore={() => loadMore(entry.list.id)}
            onRename={(name) =>
              change(
                () => call('PATCH', `lists/${encodeURIComponent(entry.list.id)}`, { name }),
                `Renamed the list to ${name}.`,
              )
            }
          />
        ))}
        <NewList
          onCreate={(name) =>
            change(
              () => call('POST', `boards/${encodeURIComponent(board.id)}/lists`, { name }),
              `Added the list ${name}.`,
            )
          }
        />
      </div>
    </section>
  );
}

/** "Add a list" at the end of the columns: a name, Enter. */
function NewList({ onCreate }: { onCreate(name: string): Promise<ApiError | null> }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    const text = name.trim();
    if (!text || busy) return;
    setBusy(true);
    const failure = await onCreate(text);
    setBusy(false);
    setError(failure);
    if (!failure) setName('');
  }
  return (
    <form class="list new-list" onSubmit={submit}>
      <label for="new-list">Add a list</label>
      <input
        id="new-list"
        value={name}
        placeholder="List name (Enter)"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'new-list-error' : undefined}
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      <FieldError id="new-list-error" error={error} field="name" />
    </form>
  );
}

interface ListProps {
  entry: ConsoleBoardList;
  left: string | null;
  right: string | null;
  lists: ConsoleBoardList[];
  fields: CustomField[];
  shades: string[];
  onCreate(title: string): Promise<ApiError | null>;
  onComplete(task: Task): Promise<unknown>;
  onShade(task: Task, shade: string): Promise<unknown>;
  onPlace(task: Task, target: Placement): Promise<void>;
  onMore(): Promise<void>;
  onRename(name: string): Promise<ApiError | null>;
}

const DRAG_TYPE = 'application/x-threadwork-task';
/** The task being dragged (dataTransfer cannot be read during dragover). */
let dragged: Task | null = null;

/** Moves keyboard focus to a card's title (the card's stop in the tab order), or a list's title box. */
function focusCard(taskId: string | undefined, listId: string): void {
  const target = taskId
    ? document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(taskId)}"] .card-title`)
    : document.querySelector<HTMLElement>(
        `[data-list-id="${CSS.escape(listId)}"] [data-testid="console-new-task"]`,
      );
  target?.focus();
}

function ListColumn(props: ListProps) {
  const { entry, fields } = props;
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [dropAfter, setDropAfter] = useState<string | null | undefined>(undefined);
  // The one card of the list in the tab order (roving): the last one focused, else the first.
  const [active, setActive] = useState<string | null>(null);
  const section = useRef<HTMLElement>(null);
  const tasks = entry.tasks;
  const activeId = tasks.some((task) => task.id === active) ? active : (tasks[0]?.id ?? null);
  const headingId = `list-${entry.list.id}`;
  const errorId = `new-${entry.list.id}-error`;

  async function submit(event: Event) {
    event.preventDefault();
    const text = title.trim();
    if (!text || busy) return;
    setBusy(true);
    const failure = await props.onCreate(text);
    setBusy(false);
    setError(failure);
    // A refused title stays in the box, with the server's reason beside it.
    if (!failure) setTitle('');
  }

  /**
   * Where a drop at this pointer height lands: after the last card whose middle is above the pointer
   * (the top over the list's heading or title box; after the last card below it, or in an empty list).
   */
  function afterAt(event: DragEvent): string | null {
    const cards = [...(section.current?.querySelectorAll<HTMLElement>('[data-task-id]') ?? [])];
    let after: string | null = null;
    for (const card of cards) {
      const box = card.getBoundingClientRect();
      if (event.clientY > box.top + box.height / 2) after = card.dataset['taskId'] ?? null;
    }
    return after;
  }

  function move(task: Task, key: string): boolean {
    const index = tasks.findIndex((candidate) => candidate.id === task.id);
    if (key === 'ArrowUp' && index > 0) {
      void props.onPlace(task, { list_id: entry.list.id, after_task_id: tasks[index - 2]?.id ?? null });
      return true;
    }
    if (key === 'ArrowDown' && index < tasks.length - 1) {
      void props.onPlace(task, { list_id: entry.list.id, after_task_id: tasks[index + 1]!.id });
      return true;
    }
    const target = key === 'ArrowLeft' ? props.left : key === 'ArrowRight' ? props.right : null;
    if (target) {
      void props.onPlace(task, { list_id: target, after_task_id: null });
      return true;
    }
    return false;
  }

  /** Arrow keys on a card's title: Up and Down go from card to card, Left and Right to the next list. */
  function go(task: Task, key: string): boolean {
    const index = tasks.findIndex((candidate) => candidate.id === task.id);
    const to = (next: Task | undefined) => {
      if (!next) return;
      setActive(next.id);
      focusCard(next.id, entry.list.id);
    };
    if (key === 'ArrowUp') to(tasks[index - 1]);
    else if (key === 'ArrowDown') to(tasks[index + 1]);
    else if (key === 'Home') to(tasks[0]);
    else if (key === 'End') to(tasks.at(-1));
    else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const listId = key === 'ArrowLeft' ? props.left : props.right;
      if (!listId) return true;
      const list = document.querySelector(
        `[data-testid="console-list"][data-list-id="${CSS.escape(listId)}"]`,
      );
      // That list's card in the tab order, else its title box.
      const card = list?.querySelector<HTMLElement>('.card-title[tabindex="0"]');
      if (card) card.focus();
      else focusCard(undefined, listId);
    } else return false;
    return true;
  }

  const dragOver = (event: DragEvent) => {
    if (!dragged) return;
    event.preventDefault();
    setDropAfter(afterAt(event));
  };

  return (
    <section
      class={`list${dropAfter !== undefined ? ' dropping' : ''}`}
      ref={section}
      data-testid="console-list"
      data-list-id={entry.list.id}
      aria-labelledby={headingId}
      onDragOver={dragOver}
      onDragEnter={dragOver}
      onDragLeave={(event) => {
        if (!(event.currentTarget as Node).contains(event.relatedTarget as Node | null))
          setDropAfter(undefined);
      }}
      onDrop={(event) => {
        event.preventDefault();
        const task = dragged;
        const after = afterAt(event);
        setDropAfter(undefined);
        dragged = null;
        if (task && after !== task.id)
          void props.onPlace(task, { list_id: entry.list.id, after_task_id: after });
      }}
    >
      <h2 id={headingId}>
        <InlineRename name={entry.list.name} what={`list ${entry.list.name}`} onSave={props.onRename}>
          {entry.list.name}{' '}
          <span class="count">
            {tasks.length}
            {entry.next_cursor ? '+' : ''}
          </span>
        </InlineRename>
      </h2>
      <form onSubmit={submit}>
        <label class="visually-hidden" for={`new-${entry.list.id}`}>
          New task in {entry.list.name}
        </label>
        <input
          id={`new-${entry.list.id}`}
          data-testid="console-new-task"
          placeholder="+ Add a task (Enter)"
          value={title}
          readOnly={busy}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? errorId : undefined}
          onInput={(event) => {
            setTitle((event.target as HTMLInputElement).value);
            setError(null);
          }}
        />
        <FieldError id={errorId} error={error} field="title" />
      </form>
      <ol class="cards">
        {tasks.map((task) => (
          <Card
            key={task.id}
            task={task}
            fields={fields}
            shades={props.shades}
            lists={props.lists}
            tabbable={task.id === activeId}
            dropBefore={dropAfter === null && task === tasks[0]}
            dropAfter={dropAfter === task.id}
            onFocus={() => setActive(task.id)}
            onComplete={() => props.onComplete(task)}
            onShade={(shade) => props.onShade(task, shade)}
            onMoveTo={(listId) => props.onPlace(task, { list_id: listId, after_task_id: null })}
            onKey={(key) => move(task, key)}
            onGo={(key) => go(task, key)}
          />
        ))}
      </ol>
      {tasks.length === 0 && <p class="muted empty">No tasks{dragged ? ': drop a card here' : ''}</p>}
      {entry.next_cursor && (
        <button type="button" class="more" onClick={() => props.onMore()}>
          Show more tasks
        </button>
      )}
    </section>
  );
}

interface CardProps {
  task: Task;
  fields: CustomField[];
  shades: string[];
  lists: ConsoleBoardList[];
  /** Whether the card's controls are in the tab order (one card per list is). */
  tabbable: boolean;
  dropBefore: boolean;
  dropAfter: boolean;
  onFocus(): void;
  onComplete(): Promise<unknown>;
  onShade(shade: string): Promise<unknown>;
  onMoveTo(listId: string): Promise<void>;
  /** A key on the move handle: moves the card. */
  onKey(key: string): boolean;
  /** A key on the card's title: moves focus. */
  onGo(key: string): boolean;
}

/** A custom value as a person reads it: option labels for option fields, the value otherwise. */
export function fieldText(field: CustomField, value: unknown): string {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return '';
  if (field.options && Array.isArray(value)) {
    return value
      .map((id) => field.options?.find((option) => option.id === id)?.label ?? String(id))
      .join(', ');
  }
  if (field.options && typeof value === 'string') {
    return field.options.find((option) => option.id === value)?.label ?? value;
  }
  return String(value);
}

function Card(props: CardProps) {
  const { task } = props;
  // The state asked for while the server makes the change: shown (and the box disabled) until the
  // answer's reload shows the task as it now is, or a failure shows it as it was.
  const [asked, setAsked] = useState<boolean | null>(null);
  async function toggle() {
    setAsked(!task.completed);
    await props.onComplete();
    setAsked(null);
  }
  const shown = props.fields
    .filter((field) => field.display_on_card)
    .map((field) => ({
      field,
      text: fieldText(field, task.custom_fields.find((value) => value.field_id === field.id)?.value),
    }))
    .filter((entry) => entry.text !== '');
  const titleId = `task-${task.id}`;
  const stop = props.tabbable ? 0 : -1;
  return (
    <li
      class={`card shade-${task.shade}${task.completed ? ' done' : ''}${props.dropBefore ? ' drop-before' : ''}${props.dropAfter ? ' drop-after' : ''}`}
      data-testid="console-task"
      data-task-id={task.id}
      data-completed={String(task.completed)}
      draggable
      aria-labelledby={titleId}
      onFocusIn={props.onFocus}
      onDragStart={(event) => {
        dragged = task;
        event.dataTransfer?.setData(DRAG_TYPE, task.id);
        event.dataTransfer?.setData('text/plain', task.title);
      }}
      onDragEnd={() => {
        dragged = null;
      }}
    >
      <div class="card-top">
        <button
          type="button"
          class="handle"
          data-move-handle=""
          tabIndex={stop}
          aria-label={`Move ${task.title}`}
          aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight"
          title="Drag, or focus and press the arrow keys (Up/Down: reorder, Left/Right: move to the next list)"
          onKeyDown={(event) => {
            if (event.altKey || event.ctrlKey || event.metaKey) return;
            if (props.onKey(event.key)) event.preventDefault();
          }}
        >
          ⠿
        </button>
        <input
          type="checkbox"
          checked={asked ?? task.completed}
          disabled={asked !== null}
          tabIndex={stop}
          aria-label={task.completed ? `Reopen ${task.title}` : `Complete ${task.title}`}
          onChange={() => void toggle()}
        />
        <a
          id={titleId}
          class="card-title"
          href={`/tasks/${encodeURIComponent(task.id)}`}
          tabIndex={stop}
          aria-describedby="board-help"
          onKeyDown={(event) => {
            if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
            if (props.onGo(event.key)) event.preventDefault();
          }}
        >
          {task.title}
        </a>
      </div>
      <dl class="card-meta">
        {task.shade !== 'none' && (
          <div>
            <dt>Shade</dt>
            <dd>{shadeLabel(task.shade)}</dd>
          </div>
        )}
        {task.assignee && (
          <div>
            <dt>Assignee</dt>
            <dd>{task.assignee.name ?? task.assignee.email}</dd>
          </div>
        )}
        {task.due_at && (
          <div>
            <dt>Due</dt>
            <dd>
              <Time value={task.due_at} />
            </dd>
          </div>
        )}
        {shown.map(({ field, text }) => (
          <div key={field.id}>
            <dt>{field.name}</dt>
            <dd>{text}</dd>
          </div>
        ))}
        {task.thread_ids.length > 0 && (
          <div>
            <dt>Threads</dt>
            <dd>{task.thread_ids.length}</dd>
          </div>
        )}
      </dl>
      <details class="card-actions">
        <summary tabIndex={stop}>
          Change<span class="visually-hidden"> {task.title}</span>
        </summary>
        <label>
          Shade{' '}
          <select
            value={task.shade}
            onChange={(event) => props.onShade((event.target as HTMLSelectElement).value)}
          >
            {props.shades.map((shade) => (
              <option value={shade}>{shadeLabel(shade)}</option>
            ))}
          </select>
        </label>
        <label>
          Move to{' '}
          <select
            value={task.list_id ?? ''}
            onChange={(event) => props.onMoveTo((event.target as HTMLSelectElement).value)}
          >
            {props.lists.map((entry) => (
              <option value={entry.list.id}>{entry.list.name}</option>
            ))}
          </select>
        </label>
        <span class="buttons">
          <button type="button" onClick={() => props.onKey('ArrowUp')}>
            Up
          </button>
          <button type="button" onClick={() => props.onKey('ArrowDown')}>
            Down
          </button>
        </span>
      </details>
    </li>
  );
}
