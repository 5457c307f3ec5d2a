/**
 * A board's members (`GET /v2/boards/{id}/members`, items `{ user_id, email, display_name }`): who a task of
 * the board may be assigned to. Read through the typed client's `boards.members(boardId)`.
 */
import type { Page, ThreadworkClient } from '@threadwork/shared';

export interface BoardMember {
  user_id: string;
  email: string;
  display_name: string | null;
}

// The typed client gains `boards.members` with the service's board-members endpoint; until this package
// builds against that client, its shape is stated here.
type BoardsWithMembers = {
  members(boardId: string, params?: { limit?: number; cursor?: string }): PromiseLike<Page<BoardMember>>;
};

/** One page of the board's members. */
export function boardMembers(
  client: ThreadworkClient,
  boardId: string,
  params: { limit?: number; cursor?: string | undefined } = {},
): PromiseLike<Page<BoardMember>> {
  const boards = client.boards as unknown as BoardsWithMembers;
  return boards.members(boardId, {
    ...(params.limit === undefined ? {} : { limit: params.limit }),
    ...(params.cursor === undefined ? {} : { cursor: params.cursor }),
  });
}

/** Every member of the board (a board has a few dozen at most; the walk stops after `maxPages`). */
export async function allBoardMembers(
  client: ThreadworkClient,
  boardId: string,
  maxPages = 10,
): Promise<BoardMember[]> {
  const members: BoardMember[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await boardMembers(client, boardId, { limit: 100, cursor });
    members.push(...page.data);
    if (!page.hasMore || page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return members;
}
