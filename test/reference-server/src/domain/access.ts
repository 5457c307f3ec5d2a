// Who may see what, and the one paid check every gated endpoint uses.
import type { SubscriptionSummary } from '@threadwork/shared/schemas';
import type { Executor } from '../db/database.ts';
import { notFound, ServiceError } from './errors.ts';

const PAID_STATUSES: ReadonlySet<string> = new Set([
  'active',
  'trialing',
  'past_due',
  'cancel_pending',
  'migration_pending',
]);

/** Paid: a plan that is not `free`, in a status that still grants the plan. */
export function isPaid(plan: string | null, status: string): boolean {
  return plan !== null && plan !== 'free' && PAID_STATUSES.has(status);
}

export function subscriptionSummary(
  row: { plan: string | null; status: string | null } | undefined,
): SubscriptionSummary {
  if (!row || row.status === null) return null;
  return { plan: row.plan, status: row.status, paid: isPaid(row.plan, row.status) };
}

export interface TeamAccess {
  id: string;
  name: string;
  subscription: SubscriptionSummary;
}

export interface BoardAccess {
  id: string;
  team_id: string | null;
  owner_id: string | null;
  name: string;
  board_type: string;
  template: string | null;
  created_at: string;
  /** The owning team's subscription; null for a personal board and for a team without a record. */
  subscription: SubscriptionSummary;
}

export interface ListAccess {
  id: string;
  board_id: string;
  name: string;
  position: number;
  board: BoardAccess;
}

/** A team the user belongs to, with its subscription; 404 otherwise. Not gated. */
export async function findMemberTeam(db: Executor, userId: string, teamId: string): Promise<TeamAccess> {
  const row = await db
    .selectFrom('teams')
    .innerJoin('team_members', (join) =>
      join.onRef('team_members.team_id', '=', 'teams.id').on('team_members.user_id', '=', userId),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'teams.id')
    .select(['teams.id', 'teams.name', 'subscriptions.plan', 'subscriptions.status'])
    .where('teams.id', '=', teamId)
    .executeTakeFirst();
  if (!row) throw notFound('team', teamId);
  return { id: row.id, name: row.name, subscription: subscriptionSummary(row) };
}

/** 402 unless the subscription is paid. */
export function assertPaid(subscription: SubscriptionSummary, teamId: string): void {
  if (!subscription?.paid) {
    throw new ServiceError(
      'subscription_required',
      `team ${teamId} has no paid subscription${subscription ? ` (status ${subscription.status})` : ''}`,
      { team_id: teamId },
    );
  }
}

/** A team the user belongs to and whose subscription is paid: the gate of every team resource. */
export async function requirePaidTeam(db: Executor, userId: string, teamId: string): Promise<TeamAccess> {
  const team = await findMemberTeam(db, userId, teamId);
  assertPaid(team.subscription, team.id);
  return team;
}

/**
 * A board the user may see: a team board of one of the user's teams, or the user's own personal board.
 * Team boards are gated on the team's subscription (402); a personal board has no team to gate on.
 */
export async function requireBoard(db: Executor, userId: string, boardId: string): Promise<BoardAccess> {
  const row = await db
    .selectFrom('boards')
    .leftJoin('team_members', (join) =>
      join.onRef('team_members.team_id', '=', 'boards.team_id').on('team_members.user_id', '=', userId),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select([
      'boards.id',
      'boards.team_id',
      'boards.owner_id',
      'boards.name',
      'boards.board_type',
      'boards.template',
      'boards.created_at',
      'team_members.user_id as member_id',
      'subscriptions.plan',
      'subscriptions.status',
    ])
    .where('boards.id', '=', boardId)
    .executeTakeFirst();
  const visible = row && (row.team_id === null ? row.owner_id === userId : row.member_id !== null);
  if (!row || !visible) throw notFound('board', boardId);
  const { member_id: _member, plan, status, ...board } = row;
  const access = { ...board, subscription: subscriptionSummary({ plan, status }) };
  if (access.team_id !== null) assertPaid(access.subscription, access.team_id);
  return access;
}

/** A list on a board the user may see (same gate as the board). */
export async function requireList(db: Executor, userId: string, listId: string): Promise<ListAccess> {
  const list = await db
    .selectFrom('lists')
    .select(['id', 'board_id', 'name', 'position'])
    .where('id', '=', listId)
    .executeTakeFirst();
  if (!list) throw notFound('list', listId);
  try {
    return { ...list, board: await requireBoard(db, userId, list.board_id) };
  } catch (error) {
    // The board's id must not leak through a list id the caller cannot see.
    if (error instanceof ServiceError && error.code === 'not_found') throw notFound('list', listId);
    throw error;
  }
}
