import type { Board, BoardMember, List, Task, Team } from '@threadwork/shared/schemas';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ExtensionError, type Send } from '../lib/messaging.ts';
import type { Choice, FoundTaskView, LinkedTaskView } from '../lib/protocol.ts';
import { ErrorArea } from './ErrorArea.tsx';

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

const newDraft = (subject: string): Draft => ({
  title: subject,
  notes: '',
  due: '',
  position: 'top',
  archive: false,
});

/** How long an answer may take before the panel says it is still waiting. */
export const PROGRESS_AFTER_MS = 1000;
/** The pause in typing after which the existing-task search runs. */
const SEARCH_DEBOUNCE_MS = 250;

/** `YYYY-MM-DD` from the date input, as the end of that day in the user's time zone. */
export function dueAt(date: string): string | undefined {
  if (date === '') return undefined;
  const parsed = new Date(`${date}T23:59:00`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

export type QuickDue = 'today' | 'tomorrow' | 'next-week';
const QUICK_DUE: { id: QuickDue; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'tomorrow', label: 'Tomorrow' },
  { id: 'next-week', label: 'Next week' },
];

/** The date of a quick choice, in the user's time zone. "Next week" is next Monday, as Gmail's snooze has it. */
export function quickDue(which: QuickDue, now = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (which === 'tomorrow') day.setDate(day.getDate() + 1);
  if (which === 'next-week') day.setDate(day.getDate() + ((8 - day.getDay()) % 7 || 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** One answer from the service, for one key: unknown until it arrives, which is not the same as empty. */
type Remote<T> =
  | { key: string; status: 'loading' }
  | { key: string; status: 'ok'; data: T }
  | { key: string; status: 'error'; error: unknown };

interface RemoteHandle<T> {
  /** Null when there is nothing to load (the key is null). */
  state: Remote<T> | null;
  data: T | null;
  retry: () => void;
  set: (data: T) => void;
}

/**
 * Loads whenever `key` changes (null: nothing to load) or `retry` is called. An answer for an older key is
 * dropped, and until the answer for the current key arrives the state is "loading", never stale data.
 */
function useRemote<T>(key: string | null, load: () => Promise<T>): RemoteHandle<T> {
  const [state, setState] = useState<Remote<T> | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    // Nothing asked: forget the last answer, so asking again (back to a team) waits for a fresh one
    // instead of briefly offering the old choices (and an enabled Create) before reloading.
    if (key === null) {
      setState(null);
      return;
    }
    let live = true;
    setState({ key, status: 'loading' });
    load().then(
      (data) => live && setState({ key, status: 'ok', data }),
      (error: unknown) => live && setState({ key, status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  const current: Remote<T> | null =
    key === null ? null : state?.key === key ? state : { key, status: 'loading' };
  return {
    state: current,
    data: current?.status === 'ok' ? current.data : null,
    retry: () => setAttempt((value) => value + 1),
    set: (data) => {
      if (key !== null) setState({ key, status: 'ok', data });
    },
  };
}

/** True once `active` has lasted `ms`: progress shows for slow answers only, never as a flash. */
function useSlow(active: boolean, ms: number): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setSlow(true), ms);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [active]);
  return active && slow;
}

/**
 * Keeps the chosen id when it is one of `items` (the user's own choice stands), else picks the remembered
 * one, else the first; among the `usable` items when there are any. It reads the choice as it is when the
 * answer lands (an updater), not as it was at the render before: a user who picks in between keeps the pick.
 */
function useChoice<T extends { id: string }>(
  items: T[] | null,
  setId: (update: (current: string) => string) => void,
  remembered: () => string | undefined,
  usable: (item: T) => boolean = () => true,
) {
  useEffect(() => {
    if (items === null) return;
    setId((current) => {
      if (items.some((item) => item.id === current)) return current;
      const candidates = items.some(usable) ? items.filter(usable) : items;
      return (candidates.find((item) => item.id === remembered()) ?? candidates[0])?.id ?? '';
    });
  }, [items]);
}

/** A team where tasks can be made (the same `paid` the service gates on). */
const isPaid = (team: Team) => team.subscription?.paid !== false;

/**
 * One picker of the panel: disabled until it has options, and with a first line (`empty`) that says why
 * nothing is chosen (loading, unavailable, none) instead of a blank box.
 */
function Picker(props: {
  label: string;
  testId: string;
  value: string;
  empty: string | null;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select
        data-testid={props.testId}
        value={props.value}
        disabled={props.options.length === 0}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.empty !== null && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The placeholder a picker shows when it has no valid choice: never a blank box. */
function placeholder(remote: { state: { status: string } | null }, empty: string, before: string): string {
  const state = remote.state;
  if (state === null) return before;
  if (state.status === 'loading') return 'Loading…';
  if (state.status === 'error') return 'Unavailable';
  return empty;
}

/**
 * The "create a task from this thread" panel: pickers (each a choice the service answered), fields, submit,
 * the confirmation, "add to an existing task" and the thread's tasks.
 */
export function TaskPanel({ thread, send, onOpenSettings, onSubmitRef }: TaskPanelProps) {
  const [draft, setDraft] = useState<Draft>(() => drafts.get(thread.id) ?? newDraft(thread.subject));
  const [teamId, setTeamId] = useState('');
  const [boardId, setBoardId] = useState('');
  const [listId, setListId] = useState('');
  const [assignee, setAssignee] = useState('');
  const [actionError, setActionError] = useState<{ error: unknown; retry: () => void } | null>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<Task | null>(null);
  const [linkedVersion, setLinkedVersion] = useState(0);
  const remembered = useRef<Choice | null>(null);
  // One key per logical create: a double click or a retry of the same form sends the same key.
  const idempotency = useRef<{ key: string; body: string } | null>(null);
  const pendingRef = useRef(false);
  const confirmation = useRef<HTMLDivElement>(null);
  const titleField = useRef<HTMLTextAreaElement>(null);

  const update = (patch: Partial<Draft>) => {
    setDraft((previous) => {
      const next = { ...previous, ...patch };
      drafts.set(thread.id, next);
      return next;
    });
  };

  const settings = useRemote('settings', async () => {
    const answer = await send({ type: 'settings.get' });
    remembered.current = answer.choice;
    if (!answer.settings.configured) throw new ExtensionError({ kind: 'not_configured', message: '' });
    return answer;
  });
  const configured = settings.data !== null;

  const teams = useRemote<Team[]>(configured ? 'teams' : null, () => send({ type: 'teams.list' }));
  // The default team is one where a task can be made: the remembered one while it is paid, else the first paid.
  useChoice(teams.data, setTeamId, () => remembered.current?.team_id, isPaid);
  const team = teams.data?.find((candidate) => candidate.id === teamId);
  const unpaid = team !== undefined && !isPaid(team);

  // An unpaid team has nothing to choose from: its boards are not asked for, and Create stays disabled.
  const boards = useRemote<Board[]>(team !== undefined && !unpaid ? `boards:${teamId}` : null, () =>
    send({ type: 'boards.list', team_id: teamId }),
  );
  useChoice(boards.data, setBoardId, () => remembered.current?.board_id);
  const boardValid = boards.data?.some((board) => board.id === boardId) === true;

  const lists = useRemote<List[]>(boardValid ? `lists:${boardId}` : null, () =>
    send({ type: 'lists.list', board_id: boardId }),
  );
  useChoice(lists.data, setListId, () => remembered.current?.list_id);
  const listValid = lists.data?.some((list) => list.id === listId) === true;

  const members = useRemote<BoardMember[]>(boardValid ? `members:${boardId}` : null, () =>
    send({ type: 'members.list', board_id: boardId }),
  );
  useEffect(() => {
    if (assignee !== '' && members.data?.some((member) => member.email === assignee) !== true)
      setAssignee('');
  }, [members.data]);

  const linked = useRemote<LinkedTaskView[]>(configured ? `linked:${thread.id}:${linkedVersion}` : null, () =>
    send({ type: 'thread.linkedTasks', thread_id: thread.id }),
  );

  const existing = useExistingTask(thread.id, teamId, team !== undefined && !unpaid, send, () =>
    setLinkedVersion((value) => value + 1),
  );

  const choicesValid = team !== undefined && !unpaid && boardValid && listValid;

  const loads = [
    { name: 'settings', remote: settings },
    { name: 'teams', remote: teams },
    { name: 'boards', remote: boards },
    { name: 'lists', remote: lists },
    { name: 'board members', remote: members },
    { name: 'tasks from this thread', remote: linked },
    { name: 'matching tasks', remote: existing.search },
  ];
  const waiting = loads.filter((load) => load.remote.state?.status === 'loading');
  const slow = useSlow(waiting.length > 0 || pending || existing.linking, PROGRESS_AFTER_MS);
  const failed = loads.filter((load) => load.remote.state?.status === 'error');
  const unpaidError =
    team !== undefined && unpaid
      ? new ExtensionError({
          kind: 'subscription',
          message: `${team.name} has no paid subscription, so no task can be made there.`,
        })
      : null;
  const shownError =
    actionError?.error ??
    existing.error?.error ??
    (failed[0]?.remote.state as { error?: unknown } | undefined)?.error ??
    unpaidError;
  // One Retry for every state: it runs again whatever failed (an unpaid team: the teams, which may be renewed).
  const retryAll = () => {
    const action = actionError;
    const link = existing.error;
    setActionError(null);
    existing.clearError();
    action?.retry();
    link?.retry();
    for (const load of failed) load.remote.retry();
    if (unpaidError !== null) teams.retry();
  };

  const submit = async () => {
    if (pendingRef.current || created !== null || !choicesValid) return;
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
    if (idempotency.current?.body !== body) idempotency.current = { key: crypto.randomUUID(), body };
    const choice = { team_id: teamId, board_id: boardId, list_id: listId };
    pendingRef.current = true;
    setPending(true);
    setActionError(null);
    try {
      const result = await send({
        type: 'task.create',
        task,
        choice,
        idempotency_key: idempotency.current.key,
        ...(assignee === '' ? {} : { assignee_email: assignee }),
      });
      remembered.current = choice;
      idempotency.current = null;
      drafts.delete(thread.id);
      setCreated(result);
      setLinkedVersion((value) => value + 1);
    } catch (failure) {
      setActionError({ error: failure, retry: () => void submit() });
    } finally {
      pendingRef.current = false;
      setPending(false);
    }
  };
  onSubmitRef?.(() => void submit());

  // The confirmation takes the focus from the Create button it replaces, so it never falls to the page.
  useEffect(() => {
    if (created !== null) confirmation.current?.focus();
  }, [created]);

  const createAnother = () => {
    setCreated(null);
    setDraft(newDraft(thread.subject));
    setTimeout(() => titleField.current?.focus(), 0);
  };

  const complete = async (taskId: string) => {
    try {
      setActionError(null);
      const task = await send({ type: 'task.complete', task_id: taskId });
      linked.set(
        (linked.data ?? []).map((item) =>
          item.id === taskId ? { ...item, completed: task.completed } : item,
        ),
      );
    } catch (failure) {
      setActionError({ error: failure, retry: () => void complete(taskId) });
    }
  };

  const open = (taskId: string) =>
    send({ type: 'task.open', task_id: taskId }).catch((failure: unknown) =>
      setActionError({ error: failure, retry: () => void open(taskId) }),
    );

  const memberName = (email: string | null | undefined) =>
    members.data?.find((member) => member.email === email)?.display_name ?? email;

  return (
    <div class="tw-form" aria-busy={waiting.length > 0 || pending}>
      {created === null ? (
        <form
          class="tw-form"
          aria-label="New task from this thread"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label>
            Title
            <textarea
              ref={titleField}
              data-testid="threadwork-title"
              rows={2}
              value={draft.title}
              onInput={(event) => update({ title: event.currentTarget.value })}
            />
          </label>
          <div class="tw-pickers">
            <Picker
              label="Team"
              testId="threadwork-team"
              value={team === undefined ? '' : teamId}
              empty={team === undefined ? placeholder(teams, 'No teams', 'Not set up') : null}
              options={(teams.data ?? []).map((candidate) => ({
                value: candidate.id,
                label: isPaid(candidate) ? candidate.name : `${candidate.name} (unpaid)`,
              }))}
              onChange={setTeamId}
            />
            <Picker
              label="Board"
              testId="threadwork-board"
              value={boardValid ? boardId : ''}
              empty={
                boardValid
                  ? null
                  : unpaid
                    ? 'Unavailable (unpaid team)'
                    : placeholder(boards, 'No boards', '—')
              }
              options={(boards.data ?? []).map((board) => ({ value: board.id, label: board.name }))}
              onChange={setBoardId}
            />
            <Picker
              label="List"
              testId="threadwork-list"
              value={listValid ? listId : ''}
              empty={listValid ? null : placeholder(lists, 'No lists', '—')}
              options={(lists.data ?? []).map((list) => ({ value: list.id, label: list.name }))}
              onChange={setListId}
            />
            <Picker
              label="Assignee"
              testId="threadwork-assignee"
              value={assignee}
              empty={members.data === null ? placeholder(members, 'Nobody', '—') : 'Nobody'}
              options={(members.data ?? []).map((member) => ({
                value: member.email,
                label: member.display_name ?? member.email,
              }))}
              onChange={setAssignee}
            />
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
            <div class="tw-field">
              <label for="tw-due">Due date</label>
              <input
                id="tw-due"
                type="date"
                data-testid="threadwork-due"
                value={draft.due}
                onInput={(event) => update({ due: event.currentTarget.value })}
              />
              <fieldset class="tw-chips" aria-label="Quick due dates">
                {QUICK_DUE.map((choice) => (
                  <button
                    key={choice.id}
                    type="button"
                    data-testid={`threadwork-due-${choice.id}`}
                    aria-pressed={draft.due !== '' && draft.due === quickDue(choice.id)}
                    onClick={() => update({ due: quickDue(choice.id) })}
                  >
                    {choice.label}
                  </button>
                ))}
              </fieldset>
            </div>
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
          <div class="tw-buttons">
            <button
              type="submit"
              class="tw-primary"
              data-testid="threadwork-submit"
              disabled={!choicesValid}
              // Pending keeps the button focusable (aria-disabled): focus never drops to the page.
              aria-disabled={pending}
            >
              {pending ? 'Creating…' : 'Create task'}
            </button>
            <span class="tw-hint">Ctrl+Enter</span>
          </div>
        </form>
      ) : (
        <div
          class="tw-ok"
          role="status"
          tabIndex={-1}
          ref={confirmation}
          data-testid="threadwork-confirmation"
        >
          Created “{created.title}” in <strong>{created.board_name ?? 'its board'}</strong> ›{' '}
          <strong>{created.list_name ?? 'its list'}</strong>
          {created.assignee?.email ? `, assigned to ${memberName(created.assignee.email)}` : ''}.
          <div class="tw-buttons">
            <button type="button" class="tw-primary" onClick={() => void open(created.id)}>
              Open
            </button>
            <button type="button" data-testid="threadwork-create-another" onClick={createAnother}>
              Create another
            </button>
          </div>
        </div>
      )}
      {slow && (
        <p class="tw-progress" role="status" data-testid="threadwork-progress">
          {pending
            ? 'Creating the task: waiting for the service…'
            : existing.linking
              ? 'Adding the thread: waiting for the service…'
              : `Loading ${waiting.map((load) => load.name).join(', ')}… The service is slow to answer.`}
        </p>
      )}
      <ErrorArea
        error={shownError}
        testId="threadwork-error"
        onOpenSettings={onOpenSettings}
        onRetry={retryAll}
      />
      {created === null && (
        <ExistingTask
          existing={existing}
          teamName={team?.name ?? null}
          disabled={!configured || team === undefined || unpaid}
        />
      )}
      <section class="tw-linked tw-section" aria-label="Tasks from this thread">
        <h3>Tasks from this thread</h3>
        <LinkedTasks
          state={linked.state}
          configured={settings.state?.status !== 'error'}
          onComplete={complete}
          onOpen={open}
        />
      </section>
    </div>
  );
}

function LinkedTasks({
  state,
  configured,
  onComplete,
  onOpen,
}: {
  state: Remote<LinkedTaskView[]> | null;
  configured: boolean;
  onComplete: (taskId: string) => void;
  onOpen: (taskId: string) => void;
}) {
  // Unknown is not none: "None yet." only when the service answered an empty list.
  if (state === null)
    return <p class="tw-muted">{configured ? 'Loading…' : 'Unknown until Threadwork is set up.'}</p>;
  if (state.status === 'loading') return <p class="tw-muted">Loading…</p>;
  if (state.status === 'error')
    return <p class="tw-muted">Unknown: the service did not answer (see above).</p>;
  if (state.data.length === 0) return <p class="tw-muted">None yet.</p>;
  return (
    <ul>
      {state.data.map((task) => (
        <li
          key={task.id}
          data-testid="threadwork-linked-task"
          data-task-id={task.id}
          data-completed={String(task.completed === true)}
        >
          <span>
            <span class={task.completed ? 'tw-done' : ''}>{task.title ?? task.id}</span>
            {task.list_name !== null && (
              <span class="tw-muted">
                {' '}
                · {task.board_name} › {task.list_name}
              </span>
            )}
          </span>
          <span class="tw-actions">
            <button
              type="button"
              data-testid="threadwork-complete"
              disabled={task.completed === true}
              onClick={() => onComplete(task.id)}
            >
              {task.completed ? 'Completed' : 'Mark complete'}
            </button>
            <button type="button" data-testid="threadwork-open" onClick={() => onOpen(task.id)}>
              Open
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}

interface ExistingTaskState {
  query: string;
  setQuery: (query: string) => void;
  search: RemoteHandle<FoundTaskView[]>;
  picked: string;
  setPicked: (id: string) => void;
  linking: boolean;
  linkedTitle: string | null;
  link: () => void;
  error: { error: unknown; retry: () => void } | null;
  clearError: () => void;
}

/** "Add this thread to an existing task": a title search over the team's open tasks, then the v2 link. */
function useExistingTask(
  threadId: string,
  teamId: string,
  searchable: boolean,
  send: Send,
  onLinked: () => void,
): ExistingTaskState {
  const [query, setQuery] = useState('');
  const [settled, setSettled] = useState('');
  const [picked, setPicked] = useState('');
  const [linking, setLinking] = useState(false);
  const [linkedTitle, setLinkedTitle] = useState<string | null>(null);
  const [error, setError] = useState<{ error: unknown; retry: () => void } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const search = useRemote<FoundTaskView[]>(
    searchable && settled !== '' ? `search:${teamId}:${settled}` : null,
    () => send({ type: 'tasks.search', team_id: teamId, query: settled }),
  );
  useChoice(search.data, setPicked, () => undefined);
  const current = query.trim() === settled ? search.data : null;

  const link = async () => {
    const task = current?.find((candidate) => candidate.id === picked);
    if (task === undefined || linking) return;
    setLinking(true);
    setError(null);
    setLinkedTitle(null);
    try {
      await send({ type: 'task.linkThread', task_id: task.id, thread_id: threadId });
      setLinkedTitle(task.title);
      setQuery('');
      onLinked();
    } catch (failure) {
      setError({ error: failure, retry: () => void link() });
    } finally {
      setLinking(false);
    }
  };
  return {
    query,
    setQuery: (next) => {
      setLinkedTitle(null);
      setQuery(next);
    },
    search: { ...search, data: current },
    picked,
    setPicked,
    linking,
    linkedTitle,
    link: () => void link(),
    error,
    clearError: () => setError(null),
  };
}

function ExistingTask({
  existing,
  teamName,
  disabled,
}: {
  existing: ExistingTaskState;
  teamName: string | null;
  disabled: boolean;
}) {
  const found = existing.search.data;
  const canLink =
    !disabled && !existing.linking && found?.some((task) => task.id === existing.picked) === true;
  return (
    <form
      class="tw-form tw-section"
      aria-label="Add this thread to an existing task"
      onSubmit={(event) => {
        event.preventDefault();
        existing.link();
      }}
    >
      <h3>Or add this thread to an existing task</h3>
      <label>
        Find a task by title{teamName === null ? '' : ` in ${teamName}`}
        <input
          type="search"
          data-testid="threadwork-existing-task"
          value={existing.query}
          disabled={disabled}
          autocomplete="off"
          onInput={(event) => existing.setQuery(event.currentTarget.value)}
        />
      </label>
      {found !== null && found.length === 0 && <p class="tw-muted">No open task has that in its title.</p>}
      {found !== null && found.length > 0 && (
        <ul class="tw-found" aria-label="Matching tasks">
          {found.map((task) => (
            <li key={task.id} data-testid="threadwork-existing-result" data-task-id={task.id}>
              <label>
                <input
                  type="radio"
                  name="tw-existing"
                  value={task.id}
                  checked={existing.picked === task.id}
                  onChange={() => existing.setPicked(task.id)}
                />
                <span>
                  {task.title}
                  {task.list_name !== null && (
                    <span class="tw-muted">
                      {' '}
                      · {task.board_name} › {task.list_name}
                    </span>
                  )}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div class="tw-buttons">
        <button type="submit" data-testid="threadwork-link-existing" disabled={!canLink}>
          {existing.linking ? 'Adding…' : 'Add thread to task'}
        </button>
      </div>
      {existing.linkedTitle !== null && (
        <div class="tw-ok" role="status" data-testid="threadwork-link-confirmation">
          Added this thread to “{existing.linkedTitle}”.
        </div>
      )}
    </form>
  );
}
