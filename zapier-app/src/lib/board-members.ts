/**
 * A board's members (`GET /v2/boards/{id}/members`, items `{ user_id, email, display_name }`): who a task of
 * the board may be assigned to.
 */
import type { BoardMember, ThreadworkClient } from '@threadwork/shared';

/** Every member of the board (a board has a few dozen at most; the walk stops after `maxPages` pages). */
export async function allBoardMembers(
  client: ThreadworkClient,
  boardId: string,
  maxPages = 10,
): Promise<BoardMember[]> {
  const members: BoardMember[] = [];
  let page = await client.boards.members(boardId, { limit: 100 });
  for (let pages = 1; ; pages++) {
    members.push(...page.data);
    const next = pages < maxPages ? await page.nextPage() : null;
    if (next === null) break;
    page = next;
  }
  return members;
}
