import type { LinkedTaskView, ThreadView } from '../../lib/protocol.ts';
import type { Remote } from './remote.ts';

interface LinkedTasksProps {
  state: Remote<ThreadView> | null;
  configured: boolean;
  onComplete: (taskId: string) => void;
  onOpen: (taskId: string) => void;
}

/** The tasks this thread is linked to, each with Mark complete and Open. Unknown is never "none". */
export function LinkedTasks(props: LinkedTasksProps) {
  return (
    <section class="tw-linked tw-section" aria-label="Tasks from this thread">
      <h3>Tasks from this thread</h3>
      <Tasks {...props} />
    </section>
  );
}

function Tasks({ state, configured, onComplete, onOpen }: LinkedTasksProps) {
  if (state === null)
    return <p class="tw-muted">{configured ? 'Loading…' : 'Unknown until Threadwork is set up.'}</p>;
  if (state.data === null) {
    return state.loading ? (
      <p class="tw-muted">Loading…</p>
    ) : (
      <p class="tw-muted">Unknown: the service did not answer (see above).</p>
    );
  }
  if (!state.data.known) return <p class="tw-muted">None: this thread is not in Threadwork yet.</p>;
  if (state.data.tasks.length === 0) return <p class="tw-muted">None yet.</p>;
  return (
    <ul>
      {state.data.tasks.map((task: LinkedTaskView) => (
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
