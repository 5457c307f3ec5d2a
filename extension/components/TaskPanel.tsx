import type { Board, List, Task, Team } from '@threadwork/shared/schemas';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import type { LinkedTaskView } from '../lib/protocol.ts';
import { ErrorArea } from './ErrorArea.tsx';
import { ShortcutHint } from './ShortcutHint.tsx';

export interface TaskPanelProps {
  thread: { id: string; subject: string };
  send: Send;
  onOpenSettings: () => void;
  /** Called with the submit function, so a keyboard shortcut (Ctrl+Enter) can submit. */
  onSubmitRef?: ((submit: () => void) => void) | undefined;
}

interface Draft {
  title: string;
  notes: string;
  due: string;
  position: 'top' | 'bottom';
  archive: boolean;
}

/** What the user typed, per thread: closing the panel or an error never loses it. */
const drafts = new Map<string, Draft>();

function newKey(): string {
  return crypto.randomUUID();
}

/** `YYYY-MM-DD` from the date input, as the end of that day in the user's time zone. */
export function dueAt(date: string): string | undefined {
  if (date === '') return undefined;
  const parsed = new Date(`${date}T23:59:00`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

/**
 * Loads the options of one picker (boards of a team, lists of a board), shows them and selects the
 * remembered one, else the first. Returns the effect's clean-up: an answer that arrives after the parent
 * changed is dropped.
 */
function loadOptions<T extends { id: string }>(options: {
  load: () => Promise<T[]>;
  show: (found: T[]) => void;
  select: (id: string) => void;
  /** Read when the answer arrives: a create finished meanwhile may have changed it. */
  rememberedId: () => string | undefined;
  onError: (failure: unknown) => void;
}): () => void {
  let live = true;
  options.load().then(
    (found) => {
      if (!live) return;
      options.show(found);
      const chosen = found.find((candidate) => candidate.id === options.rememberedId()) ?? found[0];
      options.select(chosen?.id ?? '');
    },
    (failure: unknown) => live && options.onError(failure),
  );
  return () => {
    live = false;
  };
}

/** The "create a task from this thread" panel: pickers, fields, submit, confirmation and linked tasks. */
export function TaskPanel({ thread, send, onOpenSettings, onSubmitRef }: TaskPanelProps) {
  const [draft, setDraft] = useState<Draft>(
    () =>
      drafts.get(thread.id) ?? { title: thread.subject, notes: '', due: '', position: 'top', archive: false },
  );
  const [teams, setTeams] = useState<Team[]>([]);
  const [boards, setBoards] = useState<Board[]>([]);
  const [lists, setLists] = useState<List[]>([]);
  const [teamId, setTeamId] = useState('');
  const [boardId, setBoardId] = useState('');
  const [listId, setListId] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<Task | null>(null);
  const [linked, setLinked] = useState<LinkedTaskView[] | null>(null);
  const remembered = useRef<{ team_id: string; board_id: string; list_id: string } | null>(null);
  // One key per distinct request: a double click or a retry of the same form sends the same key.
  const idempotency = useRef<{ key: string; body: string } | null>(null);
  const pendingRef = useRef(false);

  const update = (patch: Partial<Draft>) => {
    setDraft((previous) => {
      const next = { ...previous, ...patch };
      drafts.set(thread.id, next);
      return next;
    });
  };

  const refreshLinked = () =>
    send({ type: 'thread.linkedTasks', thread_id: thread.id }).then(setLinked, (failure: unknown) => {
      setLinked([]);
      setError(failure);
    });

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const { settings, choice } = await send({ type: 'settings.get' });
        if (!live) return;
        remembered.current = choice;
        if (!settings.configured) {
          setError(new ExtensionError({ kind: 'not_configured', message: '' }));
          return;
        }
        const found = await send({ type: 'teams.list' });
        if (!live) return;
        setTeams(found);
        const team = found.find((candidate) => candidate.id === choice?.team_id) ?? found[0];
        if (team !== undefined) setTeamId(team.id);
      } catch (failure) {
        if (live) setError(failure);
      }
    })();
    refreshLinked();
    return () => {
      live = false;
    };
  }, [thread.id]);

  useEffect(() => {
    if (teamId === '') return;
    setBoards([]);
    setLists([]);
    return loadOptions({
      load: () => send({ type: 'boards.list', team_id: teamId }),
      show: setBoards,
      select: setBoardId,
      rememberedId: () => remembered.current?.board_id,
      onError: setError,
    });
  }, [teamId]);

  useEffect(() => {
    if (boardId === '') return;
    setLists([]);
    return loadOptions({
      load: () => send({ type: 'lists.list', board_id: boardId }),
      show: setLists,
      select: setListId,
      rememberedId: () => remembered.current?.list_id,
      onError: setError,
    });
  }, [boardId]);

  const submit = async () => {
    if (pendingRef.current || listId === '') return;
    const task = {
      list_id: listId,
      thread_id: thread.id,
      ...(draft.title.trim() === '' ? {} : { title: draft.title.trim() }),
      ...(draft.notes.trim() === '' ? {} : { notes: draft.notes }),
      ...(dueAt(draft.due) === undefined ? {} : { due_at: dueAt(draft.due) }),
      position: draft.position,
      ...(draft.archive ? { archive: true } : {}),
    };
    const body = JSON.stringify(task);
    if (idempotency.current?.body !== body) idempotency.current = { key: newKey(), body };
    pendingRef.current = true;
    setPending(true);
    setError(null);
    setCreated(null);
    try {
      const result = await send({
        type: 'task.create',
        task,
        choice: { team_id: teamId, board_id: boardId, list_id: listId },
        idempotency_key: idempotency.current.key,
      });
      setCreated(result);
      remembered.current = { team_id: teamId, board_id: boardId, list_id: listId };
      idempotency.current = null;
      drafts.delete(thread.id);
      // The linked tasks refresh behind the confirmation: the next submit need not wait for them.
      void refreshLinked();
    } catch (failure) {
      setError(failure);
    } finally {
      pendingRef.current = false;
      setPending(false);
    }
  };
  onSubmitRef?.(() => void submit());

  const complete = async (taskId: string) => {
    try {
      setError(null);
      const task = await send({ type: 'task.complete', task_id: taskId });
      setLinked((previous) =>
        (previous ?? []).map((item) => (item.id === taskId ? { ...item, completed: task.completed } : item)),
      );
    } catch (failure) {
      setError(failure);
    }
  };

  const open = (taskId: string) => send({ type: 'task.open', task_id: taskId }).catch(setError);

  return (
    <form
      class="tw-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        Title
        <textarea
          data-testid="threadwork-title"
          rows={2}
          value={draft.title}
          onInput={(event) => update({ title: event.currentTarget.value })}
        />
      </label>
      <div class="tw-row">
        <label>
          Team
          <select
            data-testid="threadwork-team"
            value={teamId}
            onChange={(event) => setTeamId(event.currentTarget.value)}
          >
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
                {team.subscription?.paid === false ? ' (unpaid)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Board
          <select
            data-testid="threadwork-board"
            value={boardId}
            onChange={(event) => setBoardId(event.currentTarget.value)}
          >
            {boards.map((board) => (
              <option key={board.id} value={board.id}>
                {board.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          List
          <select
            data-testid="threadwork-list"
            value={listId}
            onChange={(event) => setListId(event.currentTarget.value)}
          >
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label>
        Notes
        <textarea
          data-testid="threadwork-notes"
          rows={3}
          value={draft.notes}
          onInput={(event) => update({ notes: event.currentTarget.value })}
        />
      </label>
      <div class="tw-row">
        <label>
          Due date
          <input
            type="date"
            data-testid="threadwork-due"
            value={draft.due}
            onInput={(event) => update({ due: event.currentTarget.value })}
          />
        </label>
        <label>
          Position
          <select
            data-testid="threadwork-position"
            value={draft.position}
            onChange={(event) =>
              update({ position: event.currentTarget.value === 'bottom' ? 'bottom' : 'top' })
            }
          >
            <option value="top">Top of the list</option>
            <option value="bottom">Bottom of the list</option>
          </select>
        </label>
      </div>
      <label class="tw-check">
        <input
          type="checkbox"
          data-testid="threadwork-archive"
          checked={draft.archive}
          onChange={(event) => update({ archive: event.currentTarget.checked })}
        />
        Archive the thread
      </label>
      <ErrorArea error={error} testId="threadwork-error" onOpenSettings={onOpenSettings} />
      {created !== null && (
        <div class="tw-ok" role="status" data-testid="threadwork-confirmation">
          Created “{created.title}” in <strong>{created.board_name ?? 'its board'}</strong> ›{' '}
          <strong>{created.list_name ?? 'its list'}</strong>.
        </div>
      )}
      <button
        type="submit"
        class="tw-primary"
        data-testid="threadwork-submit"
        disabled={pending || listId === ''}
      >
        {pending ? 'Creating…' : 'Create task'}
      </button>
      <section class="tw-linked">
        <h3>Tasks from this thread</h3>
        {linked === null && <p class="tw-muted">Loading…</p>}
        {linked !== null && linked.length === 0 && <p class="tw-muted">None yet.</p>}
        <ul>
          {(linked ?? []).map((task) => (
            <li
              key={task.id}
              data-testid="threadwork-linked-task"
              data-task-id={task.id}
              data-completed={String(task.completed === true)}
            >
              <span class={task.completed ? 'tw-done' : ''}>{task.title ?? task.id}</span>
              {task.list_name !== null && (
                <span class="tw-muted">
                  {' '}
                  · {task.board_name} › {task.list_name}
                </span>
              )}
              <span class="tw-actions">
                <button
                  type="button"
                  data-testid="threadwork-complete"
                  disabled={task.completed === true}
                  onClick={() => void complete(task.id)}
                >
                  {task.completed ? 'Completed' : 'Mark complete'}
                </button>
                <button type="button" data-testid="threadwork-open" onClick={() => void open(task.id)}>
                  Open
                </button>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <ShortcutHint send={send} />
    </form>
  );
}
