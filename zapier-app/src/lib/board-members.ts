/**
 * A board's members (`GET /v2/boards/{id}/members`, items `{ user_id, email, display_name }`): who a task of
 * the board may be assigned to.
 */
import type { BoardMember, ThreadworkClient } from '@threadwork/shared';
import { bareAddress, isEmail } from './addresses.ts';

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

/**
 * The email of the member `wanted` names: an email is taken as it is (`Name <email>` too), else a
 * member's user ID or exact display name (any case, spaces around it ignored) on the board. A name two
 * members share, and a value no member matches, are refused with the candidates, so the step never
 * assigns the wrong person.
 */
export async function memberEmail(
  client: ThreadworkClient,
  boardId: () => Promise<string>,
  wanted: string,
  refuse: (message: string) => Error,
): Promise<string> {
  const email = bareAddress(wanted);
  if (isEmail(email)) return email;
  const members = await allBoardMembers(client, await boardId());
  const byId = members.find((member) => member.user_id === wanted);
  if (byId !== undefined) return byId.email;
  const name = wanted.trim().toLowerCase();
  const named = members.filter((member) => (member.display_name ?? '').trim().toLowerCase() === name);
  const describe = (list: BoardMember[]) =>
    list.map((member) => (member.display_name ? `${member.display_name} <${member.email}>` : member.email));
  if (named.length === 1 && named[0] !== undefined) return named[0].email;
  if (named.length > 1) {
    throw refuse(
      `"${wanted}" is the name of ${named.length} members of the task's board: ${describe(named).join(', ')}. Use the email of the one you mean.`,
    );
  }
  const shown = describe(members.slice(0, 10)).join(', ');
  throw refuse(
    `"${wanted}" is no member of the task's board: use a member's email, user ID or full name${members.length === 0 ? '' : ` (members: ${shown}${members.length > 10 ? ', …' : ''})`}.`,
  );
}
