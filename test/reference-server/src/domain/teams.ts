import type { Executor } from '../db/executor.ts';
import { paginate } from '../storage/pagination.ts';
import { findMemberTeam, subscriptionSummary, type TeamAccess } from './access.ts';
import type { Page, PageRequest } from './pagination.ts';

export type TeamRecord = TeamAccess;

/** Every team of the user, by name then id, with its subscription. Not gated: unpaid teams are listed. */
export async function listTeams(db: Executor, userId: string, page: PageRequest): Promise<Page<TeamRecord>> {
  const result = await paginate(
    page,
    ['teams.name', 'teams.id'],
    (after, take) => {
      let query = db
        .selectFrom('teams')
        .innerJoin('team_members', 'team_members.team_id', 'teams.id')
        .leftJoin('subscriptions', 'subscriptions.team_id', 'teams.id')
        .select(['teams.id', 'teams.name', 'subscriptions.plan', 'subscriptions.status'])
        .where('team_members.user_id', '=', userId);
      if (after) query = query.where(after);
      return query.orderBy('teams.name').orderBy('teams.id').limit(take).execute();
    },
    (row) => [row.name, row.id],
  );
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
