import type { Executor } from '../db/executor.ts';
import { selectBoardMembers } from '../storage/access.ts';
import { paginate } from '../storage/pagination.ts';
import { type BoardAccess, requireBoard, requirePaidTeam } from './access.ts';
import { noteChange } from './events/feed.ts';
import { newId } from './ids.ts';
import type { Page, PageRequest } from './pagination.ts';

export type BoardRecord = BoardAccess;

/** The boards of one team (gated), by name then id. */
export async function listTeamBoards(
  db: Executor,
  userId: string,
  teamId: string,
  page: PageRequest,
): Promise<Page<BoardRecord>> {
  const team = await requirePaidTeam(db, userId, teamId);
  const result = await paginate(
    page,
    ['name', 'id'],
    (after, take) => {
      let query = db
        .selectFrom('boards')
        .select(['id', 'team_id', 'owner_id', 'name', 'board_type', 'template', 'created_at'])
        .where('team_id', '=', team.id);
      if (after) query = query.where(after);
      return query.orderBy('name').orderBy('id').limit(take).execute();
    },
    (row) => [row.name, row.id],
  );
  return {
    items: result.items.map((row) => ({ ...row, subscription: team.subscription })),
    pagination: result.pagination,
  };
}

/**
 * The user's own personal boards (no team: nothing to gate on), by name then id. Not in the spec: the
 * spec lists boards by team only, so a client could never offer a personal board (docs/reference-server.md).
 */
export async function listPersonalBoards(
  db: Executor,
  userId: string,
  page: PageRequest,
): Promise<Page<BoardRecord>> {
  const result = await paginate(
    page,
    ['name', 'id'],
    (after, take) => {
      let query = db
        .selectFrom('boards')
        .select(['id', 'team_id', 'owner_id', 'name', 'board_type', 'template', 'created_at'])
        .where('owner_id', '=', userId)
        .where('team_id', 'is', null);
      if (after) query = query.where(after);
      return query.orderBy('name').orderBy('id').limit(take).execute();
    },
    (row) => [row.name, row.id],
  );
  return {
    items: result.items.map((row) => ({ ...row, subscription: null })),
    pagination: result.pagination,
  };
}

export interface BoardMemberRecord {
  user_id: string;
  email: string;
  display_name: string | null;
}

/** GET /boards/{id}/members: the board's members by email (404 for a board the user cannot see). */
export async function listBoardMembers(
  db: Executor,
  userId: string,
  boardId: string,
  page: PageRequest,
): Promise<Page<BoardMemberRecord>> {
  const board = await requireBoard(db, userId, boardId);
  const result = await paginate(
    page,
    ['users.email', 'users.id'],
    (after, take) => {
      let query = selectBoardMembers(db, board);
      if (after) query = query.where(after);
      return query.orderBy('users.email').orderBy('users.id').limit(take).execute();
    },
    (row) => [row.email, row.id],
  );
  return {
    items: result.items.map((row) => ({ user_id: row.id, email: row.email, display_name: row.display_name })),
    pagination: result.pagination,
  };
}

export function getBoard(db: Executor, userId: string, boardId: string): Promise<BoardRecord> {
  return requireBoard(db, userId, boardId);
}

/**
 * A shared board under the team, without lists, created from no template. It decides on the team's
 * membership and plan alone, which only writes that run alone change, and changes who may see no
 * existing list: it locks nothing (docs/postgresql.md).
 */
export async function createSharedBoard(
  db: Executor,
  userId: string,
  input: { team_id: string; name: string },
  now: Date,
): Promise<BoardRecord> {
  const team = await requirePaidTeam(db, userId, input.team_id);
  const board = {
    id: newId('brd'),
    team_id: team.id,
    owner_id: null,
    name: input.name,
    board_type: 'shared',
    template: null,
    created_at: now.toISOString(),
  };
  await db.insertInto('boards').values(board).execute();
  noteChange(db, { topic: 'board', board_id: board.id });
  return { ...board, subscription: team.subscription };
}

export async function renameBoard(
  db: Executor,
  userId: string,
  boardId: string,
  name: string,
): Promise<BoardRecord> {
  const board = await requireBoard(db, userId, boardId, 'change');
  await db.updateTable('boards').set({ name }).where('id', '=', board.id).execute();
  noteChange(db, { topic: 'board', board_id: board.id });
  return { ...board, name };
}
