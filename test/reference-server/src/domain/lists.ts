import type { Executor } from '../db/executor.ts';
import { insertList, nextListPosition, pageBoardLists, renameListRow } from '../storage/lists.ts';
import { requireBoard, requireList } from './access.ts';
import { noteChange } from './events/feed.ts';
import { newId } from './ids.ts';
import type { Page, PageRequest } from './pagination.ts';

export interface ListRecord {
  id: string;
  board_id: string;
  name: string;
  position: number;
}

/** The lists of a board in board order (left to right). */
export async function listBoardLists(
  db: Executor,
  userId: string,
  boardId: string,
  page: PageRequest,
): Promise<Page<ListRecord>> {
  const board = await requireBoard(db, userId, boardId);
  return pageBoardLists(db, board.id, page);
}

/** A new list at the end of the board (its position read under the board's lock). */
export async function createList(
  db: Executor,
  userId: string,
  boardId: string,
  input: { name: string },
  now: Date,
): Promise<ListRecord> {
  const board = await requireBoard(db, userId, boardId, 'change');
  const list = {
    id: newId('lst'),
    board_id: board.id,
    name: input.name,
    position: await nextListPosition(db, board.id),
  };
  await insertList(db, { ...list, created_at: now.toISOString() });
  noteChange(db, { topic: 'board', board_id: board.id });
  return list;
}

/** Renames a list, under its lock (the answer is the list as it stands). */
export async function renameList(
  db: Executor,
  userId: string,
  listId: string,
  name: string,
): Promise<ListRecord> {
  const list = await requireList(db, userId, listId, 'change');
  await renameListRow(db, list.id, name);
  noteChange(db, { topic: 'board', board_id: list.board_id });
  return { id: list.id, board_id: list.board_id, name, position: list.position };
}
