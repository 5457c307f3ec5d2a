// `/`: the user's teams, each with its subscription and (when paid) its boards, and personal boards.
import type { Board, ConsoleOverview } from '@threadwork/shared/schemas';
import { useResource } from '../api.ts';
import { Failure, Loading } from './common.tsx';

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

export function OverviewPage() {
  const view = useResource<ConsoleOverview>('overview', (change) => change.topic === 'board');
  if (view.error) return <Failure error={view.error} />;
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
            <BoardLinks boards={boards} />
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
