// The boards repository: a team's or a user's boards, a board's members, and the writes that make and
// rename one. Who may see a board is domain/access.ts's rule (its access row: storage/access.ts).
import type { Executor } from '../db/executor.ts';
import type { BoardsTable } from '../db/schema.ts';
import type { Page, PageRequest } from '../domain/pagination.ts';
import { selectBoardMembers } from './access.ts';
import { paginate } from './pagination.ts';

const BOARD_COLUMNS = ['id', 'team_id', 'owner_id', 'name', 'board_type', 'template', 'created_at'] as const;

/** A page of the team's boards, by name then id. */
export function pageTeamBoards(db: Executor, teamId: string, page: PageRequest): Promise<Page<BoardsTable>> {
  return paginate(
    page,
    ['name', 'id'],
    (after, take) => {
      let query = db.selectFrom('boards').select(BOARD_COLUMNS).where('team_id', '=', teamId);
      if (after) query = query.where(after);
      return query.orderBy('name').orderBy('id').limit(take).execute();
    },
    (row) => [row.name, row.id],
  );
}

/** A page of the user's personal boards (no team), by name then id. */
export function pagePersonalBoards(
  db: Executor,
  userId: string,
  page: PageRequest,
): Promise<Page<BoardsTable>> {
  return paginate(
    page,
    ['name', 'id'],
    (after, take) => {
      let query = db
        .selectFrom('boards')
        .select(BOARD_COLUMNS)
        .where('owner_id', '=', userId)
        .where('team_id', 'is', null);
      if (after) query = query.where(after);
      return query.orderBy('name').orderBy('id').limit(take).execute();
    },
    (row) => [row.name, row.id],
  );
}

/** A page of the board's members (storage/access.ts `selectBoardMembers`), by email then id. */
export function pageBoardMembers(
  db: Executor,
  board: { team_id: string | null; owner_id: string | null },
  page: PageRequest,
) {
  return paginate(
    page,
    ['users.email', 'users.id'],
    (after, take) => {
      let query = selectBoardMembers(db, board);
      if (after) query = query.where(after);
      return query.orderBy('users.email').orderBy('users.id').limit(take).execute();
    },
    (row) => [row.email, row.id],
  );
}

export async function insertBoard(db: Executor, row: BoardsTable): Promise<void> {
  await db.insertInto('boards').values(row).execute();
}

export async function renameBoardRow(db: Executor, boardId: string, name: string): Promise<void> {
  await db.updateTable('boards').set({ name }).where('id', '=', boardId).execute();
}
