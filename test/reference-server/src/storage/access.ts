// The rows access is decided on: a board or a list with the caller's membership of its team and the
// team's plan, a team with its subscription, a board's members. The rule itself is the domain's
// (domain/access.ts); these only read what it needs, each in one query.
import type { Executor } from '../db/executor.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';
import { joinListGroup } from '../db/transaction.ts';
import { holdRow, type Intent, lockTeam } from './locks.ts';

/** The board columns an access check answers, with the caller's membership and the team's plan. */
const BOARD_COLUMNS = [
  'boards.id',
  'boards.team_id',
  'boards.owner_id',
  'boards.name',
  'boards.board_type',
  'boards.template',
  'boards.created_at',
  'team_members.user_id as member_id',
  'subscriptions.plan',
  'subscriptions.status',
] as const;

function boardAccessQuery(db: Executor, userId: string, boardId: string) {
  return db
    .selectFrom('boards')
    .leftJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'boards.team_id')
        .on('team_members.user_id', '=', textParam(userId)),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select(BOARD_COLUMNS)
    .where('boards.id', '=', textParam(boardId));
}

const selectBoardAccess = prepareQuery((db: Executor, userId: string, boardId: string) =>
  boardAccessQuery(db, userId, boardId),
);

/** A board with what decides whether the user may see it (see domain/access.ts `boardAccess`). */
export type BoardAccessRow = NonNullable<Awaited<ReturnType<typeof selectBoardAccess.executeTakeFirst>>>;

/**
 * The board's access row; undefined if there is no such board. With `change`, a write that reads the
 * board's lists or fields to decide (the next position, say) holds the board's row until it commits
 * (storage/locks.ts).
 */
export async function findBoardAccess(
  db: Executor,
  userId: string,
  boardId: string,
  intent: Intent = 'read',
): Promise<BoardAccessRow | undefined> {
  const row = await selectBoardAccess.executeTakeFirst(db, userId, boardId);
  if (row !== undefined && intent === 'change') await holdRow(db, 'boards', row.id);
  return row;
}

const selectListAccess = prepareQuery((db: Executor, userId: string, listId: string) =>
  db
    .selectFrom('lists')
    .innerJoin('boards', 'boards.id', 'lists.board_id')
    .leftJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'boards.team_id')
        .on('team_members.user_id', '=', textParam(userId)),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select([
      ...BOARD_COLUMNS,
      'lists.id as list_id',
      'lists.name as list_name',
      'lists.position as list_position',
    ])
    .where('lists.id', '=', textParam(listId)),
);

/** A list with its board's access row. */
export type ListAccessRow = NonNullable<Awaited<ReturnType<typeof selectListAccess.executeTakeFirst>>>;

/**
 * The list with its board's access row, in one query; undefined if there is no such list. With
 * `change` or `add`, a write that adds tasks to the list or reorders it holds the list's row until it
 * commits (storage/locks.ts): the list's positions are then its alone to read and change. With `add`
 * (a task added at the top or bottom, nothing else changed, the list read first) the write may share
 * its commit with others adding to the same list (db/sessions.ts).
 */
export async function findListAccess(
  db: Executor,
  userId: string,
  listId: string,
  intent: Intent = 'read',
): Promise<ListAccessRow | undefined> {
  if (intent === 'add') await joinListGroup(db, listId);
  const row = await selectListAccess.executeTakeFirst(db, userId, listId);
  if (row !== undefined && intent !== 'read') await holdRow(db, 'lists', row.list_id);
  return row;
}

/**
 * A team of the user's with its subscription; undefined when the user is no member (or no such team).
 * With `change`, the team's row is held until the write commits (storage/locks.ts), from before it is
 * read: what the write makes for the team (a company of a name, say) is then made once.
 */
export async function findMemberTeam(db: Executor, userId: string, teamId: string, intent: Intent = 'read') {
  if (intent !== 'read') await lockTeam(db, teamId);
  return db
    .selectFrom('teams')
    .innerJoin('team_members', (join) =>
      join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', userId),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'teams.id')
    .select(['teams.id', 'teams.name', 'subscriptions.plan', 'subscriptions.status'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
}

/**
 * Who may be assigned a board's tasks (v1 "a board member"): a team board's members are its team's, a
 * personal board's its owner. One rule for listing them and for the v1 assign check.
 */
export function selectBoardMembers(db: Executor, board: { team_id: string | null; owner_id: string | null }) {
  const users = db.selectFrom('users').select(['users.id', 'users.email', 'users.display_name']);
  const teamId = board.team_id;
  return teamId !== null
    ? users.where(
        'users.id',
        'in',
        db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId),
      )
    : users.where('users.id', '=', board.owner_id ?? '');
}

/** The board member with this email (case aside), if any. */
export async function findBoardMember(
  db: Executor,
  board: { team_id: string | null; owner_id: string | null },
  email: string,
) {
  const query = selectBoardMembers(db, board).where((eb) =>
    eb(eb.fn('lower', ['users.email']), '=', email.trim().toLowerCase()),
  );
  return (await query.executeTakeFirst()) ?? null;
}
