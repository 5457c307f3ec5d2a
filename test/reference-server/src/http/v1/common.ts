// What the v1 routes share: whole collections (v1 never paginates) and the `{ id, name }` shape of
// teams, boards and lists.
import { PAGE_LIMIT_MAX, type V1Team } from '@threadwork/shared/schemas';
import type { Page, PageRequest } from '../../domain/pagination.ts';

/** Every item of a paginated domain listing, page after page: v1 answers whole collections. */
export async function everyPage<T>(fetchPage: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage({ limit: PAGE_LIMIT_MAX, cursor });
    items.push(...page.items);
    cursor = page.pagination.has_more ? (page.pagination.next_cursor ?? undefined) : undefined;
  } while (cursor !== undefined);
  return items;
}

/** A team, board or list as v1 shows it: nothing but its id and name. */
export function named(record: { id: string; name: string }): V1Team {
  return { id: record.id, name: record.name };
}
