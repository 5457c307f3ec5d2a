// `/`: the user's teams, each with its subscription and (when paid) its boards, and personal boards. A
// paid team's boards may be added here (as POST /v2/boards adds them).
import type { Board, ConsoleOverview } from '@threadwork/shared/schemas';
import { useState } from 'preact/hooks';
import { type ApiError, call, useResource } from '../api.ts';
import { Failure, FieldError, Loading, useTitle } from './common.tsx';

function BoardLinks({ boards }: { boards: Board[] }) {
  if (boards.length === 0) return <p class="muted">No boards</p>;
  return (
    <ul class="board-links">
      {boards.map((board) => (
        <li key={board.id}>
          <a
            href={`/boards/${encodeURIComponent(board.id)}`}
            data-testid="console-board"
            data-board-id={board.id}
          >
            {board.name}
          </a>{' '}
          <span class="muted">{board.board_type}</span>
        </li>
      ))}
    </ul>
  );
}

/** "New board" on a paid team: a name, Enter. The name stays, with the server's reason, if refused. */
function NewBoard({ teamId, teamName, onCreated }: { teamId: string; teamName: string; onCreated(): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `new-board-${teamId}`;
  async function submit(event: Event) {
    event.preventDefault();
    const text = name.trim();
    if (!text || busy) return;
    setBusy(true);
    try {
      await call('POST', 'boards', { team_id: teamId, name: text });
      setName('');
      setError(null);
      onCreated();
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="inline-form" onSubmit={submit}>
      <label for={id}>
        New board<span class="visually-hidden"> in {teamName}</span>
      </label>
      <input
        id={id}
        value={name}
        placeholder="Board name (Enter)"
        readOnly={busy}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={busy || name.trim() === ''}>
        Add<span class="visually-hidden"> board to {teamName}</span>
      </button>
      <FieldError id={`${id}-error`} error={error} field="name" />
    </form>
  );
}

export function OverviewPage() {
  useTitle('Boards');
  const view = useResource<ConsoleOverview>('overview', (change) => change.topic === 'board');
  if (view.error && !view.data) return <Failure error={view.error} />;
  if (!view.data) return <Loading />;
  const { user, teams, personal_boards } = view.data;
  return (
    <section>
      <div class="page-head">
        <h1>Boards</h1>
        <p class="muted">
          Acting as {user.display_name ? `${user.display_name} <${user.email}>` : user.email}, without a
          sign-in (this machine only).
        </p>
        {view.error && <Failure error={view.error} />}
      </div>
      {teams.map(({ team, boards }) => (
        <section class="team" key={team.id} aria-labelledby={`team-${team.id}`}>
          <h2 id={`team-${team.id}`}>{team.name}</h2>
          <p class="subscription">
            {team.subscription
              ? `Subscription: ${team.subscription.plan ?? 'no plan'}, ${team.subscription.status}${team.subscription.paid ? '' : ' (not paid)'}`
              : 'No subscription'}
          </p>
          {boards ? (
            <>
              <BoardLinks boards={boards} />
              <NewBoard teamId={team.id} teamName={team.name} onCreated={view.reload} />
            </>
          ) : (
            <p class="muted">The team's boards need a paid subscription.</p>
          )}
        </section>
      ))}
      {personal_boards.length > 0 && (
        <section class="team" aria-labelledby="personal">
          <h2 id="personal">Personal boards</h2>
          <BoardLinks boards={personal_boards} />
        </section>
      )}
    </section>
  );
}
