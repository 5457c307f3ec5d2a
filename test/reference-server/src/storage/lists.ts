// The lists repository: a board's lists in board order, and the writes that make and rename one.
import type { Executor } from '../db/executor.ts';
import type { ListsTable } from '../db/schema.ts';
import type { Page, PageRequest } from '../domain/pagination.ts';
import { paginate } from './pagination.ts';

/** A list as it is shown. */
export type ListRow = Omit<ListsTable, 'created_at'>;

/** A page of the board's lists, in board order (left to right). */
export function pageBoardLists(db: Executor, boardId: string, page: PageRequest): Promise<Page<ListRow>> {
  return paginate(
    page,
    ['position', 'id'],
    (after, take) => {
      let query = db
        .selectFrom('lists')
        .select(['id', 'board_id', 'name', 'position'])
        .where('board_id', '=', boardId);
      if (after) query = query.where(after);
      return query.orderBy('position').orderBy('id').limit(take).execute();
    },
    (row) => [row.position, row.id],
  );
}

/** The position after the board's last list (0 for its first). */
export async function nextListPosition(db: Executor, boardId: string): Promise<number> {
  const last = await db
    .selectFrom('lists')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('board_id', '=', boardId)
    .executeTakeFirst();
  return last?.position == null ? 0 : Number(last.position) + 1;
}

export async function insertList(db: Executor, row: ListsTable): Promise<void> {
  await db.insertInto('lists').values(row).execute();
}

export async function renameListRow(db: Executor, listId: string, name: string): Promise<void> {
  await db.updateTable('lists').set({ name }).where('id', '=', listId).execute();
}
