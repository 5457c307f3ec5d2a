/** "Add this thread to an existing task": a title search over the chosen team's open tasks, then the v2 link. */
import { useEffect, useState } from 'preact/hooks';
import type { Send } from '../../lib/messaging.ts';
import type { FoundTaskView } from '../../lib/protocol.ts';
import { type RemoteHandle, useChoice, useRemote } from './remote.ts';

/** The pause in typing after which the search runs. */
const SEARCH_DEBOUNCE_MS = 250;

export interface ExistingTaskState {
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

/**
 * The search and the link. `linked` are the ids of the tasks that already have this thread: they are shown
 * as such and cannot be picked, so "Added" is said only of a link that was made.
 */
export function useExistingTask(
  threadId: string,
  teamId: string,
  searchable: boolean,
  linked: readonly string[],
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
  const current = query.trim() === settled ? search.data : null;
  useChoice(
    current,
    setPicked,
    () => undefined,
    (task) => !linked.includes(task.id),
  );

  const link = async () => {
    const task = current?.find((candidate) => candidate.id === picked);
    if (task === undefined || linked.includes(task.id) || linking) return;
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

export function ExistingTask({
  existing,
  teamName,
  linked,
  disabled,
  why,
}: {
  existing: ExistingTaskState;
  teamName: string | null;
  linked: readonly string[];
  disabled: boolean;
  /** Why the search is off, when it is for a reason worth saying (the thread is not in Threadwork). */
  why?: string | undefined;
}) {
  const found = existing.search.data;
  const canLink =
    !disabled &&
    !existing.linking &&
    !linked.includes(existing.picked) &&
    found?.some((task) => task.id === existing.picked) === true;
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
      {why !== undefined && <p class="tw-muted">{why}</p>}
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
      {found !== null && found.length === 0 && (
        <p class="tw-muted">No open task has those words in its title.</p>
      )}
      {found !== null && found.length > 0 && (
        <ul class="tw-found" aria-label="Matching tasks">
          {found.map((task) => {
            const already = linked.includes(task.id);
            return (
              <li
                key={task.id}
                data-testid="threadwork-existing-result"
                data-task-id={task.id}
                data-linked={String(already)}
              >
                <label>
                  <input
                    type="radio"
                    name="tw-existing"
                    value={task.id}
                    disabled={already}
                    checked={existing.picked === task.id && !already}
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
                    {already && <span class="tw-muted"> · already has this thread</span>}
                  </span>
                </label>
              </li>
            );
          })}
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
