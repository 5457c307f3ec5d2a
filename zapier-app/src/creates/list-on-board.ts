import type { ThreadworkClient } from '@threadwork/shared';
import type { ActionContext } from './define.ts';
import { invalid } from './fields.ts';

/** Whether `listId` is a list of `boardId` (one read of the board's lists). */
export async function listIsOnBoard(
  client: ThreadworkClient,
  boardId: string,
  listId: string,
): Promise<boolean> {
  for await (const list of client.lists.list(boardId, { limit: 200 })) if (list.id === listId) return true;
  return false;
}

/**
 * With both a Board and a List chosen, the list must be on that board: a list picked before the board was
 * changed (or mapped from elsewhere) is refused by name before anything is written, instead of acting on
 * another board. One read of the board's lists; nothing when either is empty.
 */
export async function requireListOnBoard({ input, v2 }: ActionContext): Promise<void> {
  const boardId = input.text('board_id');
  const listId = input.text('list_id');
  if (boardId === undefined || listId === undefined) return;
  if (await listIsOnBoard(v2(), boardId, listId)) return;
  throw invalid(
    'list_id',
    `\`${listId}\` is not a list of the chosen Board \`${boardId}\`. Pick the list again from this input after choosing the Board, or clear the Board.`,
  );
}
