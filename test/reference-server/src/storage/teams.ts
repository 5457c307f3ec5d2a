// The teams repository: the teams a user is a member of, with their subscriptions.
import type { Executor } from '../db/executor.ts';
import type { PageRequest } from '../domain/pagination.ts';
import { paginate } from './pagination.ts';

/** A page of the user's teams with their subscription's plan and status, by name then id. */
export function pageUserTeams(db: Executor, userId: string, page: PageRequest) {
  return paginate(
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
}
