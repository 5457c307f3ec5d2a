import type { Executor } from '../db/executor.ts';
import {
  insertBoard,
  pageBoardMembers,
  pagePersonalBoards,
  pageTeamBoards,
  renameBoardRow,
} from '../storage/boards.ts';
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
  const result = await pageTeamBoards(db, team.id, page);
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
  const result = await pagePersonalBoards(db, userId, page);
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
  const result = await pageBoardMembers(db, board, page);
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
  await insertBoard(db, board);
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
  await renameBoardRow(db, board.id, name);
  noteChange(db, { topic: 'board', board_id: board.id });
  return { ...board, name };
}
