import type { Executor } from '../db/executor.ts';
import { pageUserTeams } from '../storage/teams.ts';
import { findMemberTeam, subscriptionSummary, type TeamAccess } from './access.ts';
import type { Page, PageRequest } from './pagination.ts';

export type TeamRecord = TeamAccess;

/** Every team of the user, by name then id, with its subscription. Not gated: unpaid teams are listed. */
export async function listTeams(db: Executor, userId: string, page: PageRequest): Promise<Page<TeamRecord>> {
  const result = await pageUserTeams(db, userId, page);
  return {
    items: result.items.map((row) => ({
      id: row.id,
      name: row.name,
      subscription: subscriptionSummary(row),
    })),
    pagination: result.pagination,
  };
}

/** One team of the user, with its subscription; 404 when the user is not a member. Not gated. */
export function getTeam(db: Executor, userId: string, teamId: string): Promise<TeamRecord> {
  return findMemberTeam(db, userId, teamId);
}
