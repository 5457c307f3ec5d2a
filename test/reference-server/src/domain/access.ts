// Who may see what, and the one paid check every gated endpoint uses.
import { PAID_STATUSES, type SubscriptionSummary } from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { BoardsTable } from '../db/schema.ts';
import {
  type BoardAccessRow,
  findBoardAccess,
  findListAccess,
  findMemberTeam as findMemberTeamRow,
  type ListAccessRow,
} from '../storage/access.ts';
import type { Intent } from '../storage/locks.ts';
import { notFound, ServiceError } from './errors.ts';

const PAID: ReadonlySet<string> = new Set(PAID_STATUSES);

/** Paid: a plan that is not `free`, in a status that still grants the plan. */
export function isPaid(plan: string | null, status: string): boolean {
  return plan !== null && plan !== 'free' && PAID.has(status);
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

export interface BoardAccess extends BoardsTable {
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

/**
 * A team the user belongs to, with its subscription; 404 otherwise. Not gated. `change`: the write
 * makes something the team must have once (a company of a name, its default company).
 */
export async function findMemberTeam(
  db: Executor,
  userId: string,
  teamId: string,
  intent: Intent = 'read',
): Promise<TeamAccess> {
  const team = await memberTeam(db, userId, teamId, intent);
  if (!team) throw notFound('team', teamId);
  return team;
}

async function memberTeam(
  db: Executor,
  userId: string,
  teamId: string,
  intent: Intent = 'read',
): Promise<TeamAccess | undefined> {
  const row = await findMemberTeamRow(db, userId, teamId, intent);
  return row && { id: row.id, name: row.name, subscription: subscriptionSummary(row) };
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
export async function requirePaidTeam(
  db: Executor,
  userId: string,
  teamId: string,
  intent: Intent = 'read',
): Promise<TeamAccess> {
  const team = await findMemberTeam(db, userId, teamId, intent);
  assertPaid(team.subscription, team.id);
  return team;
}

/**
 * The paid team that owns a team resource (a contact, a company): 404 naming the resource itself when
 * the user is no member, so that its id reveals nothing; 402 when the team is unpaid.
 */
export async function requireTeamResource(
  db: Executor,
  userId: string,
  teamId: string,
  what: string,
  id: string,
): Promise<TeamAccess> {
  const team = await memberTeam(db, userId, teamId);
  if (!team) throw notFound(what, id);
  assertPaid(team.subscription, team.id);
  return team;
}

/**
 * What decides whether a user reaches a board: its team (null for a personal board) and owner, whether
 * the user is a member of that team (`member_id`, null if not), and the team's plan and status.
 */
export interface BoardAccessFacts {
  team_id: string | null;
  owner_id: string | null;
  member_id: string | null;
  plan: string | null;
  status: string | null;
}

/**
 * The one access rule, used by every area (boards, lists, tasks, events, mailbox): a team board is seen
 * by the team's members, a personal board by its owner (`hidden` otherwise, which the API answers
 * 404); a team board whose team is unpaid is `unpaid` (402). Only `open` boards may be read or changed.
 */
export function boardAccess(facts: BoardAccessFacts, userId: string): 'open' | 'hidden' | 'unpaid' {
  if (facts.team_id === null) return facts.owner_id === userId ? 'open' : 'hidden';
  if (facts.member_id === null) return 'hidden';
  return facts.status !== null && isPaid(facts.plan, facts.status) ? 'open' : 'unpaid';
}

/** `boardAccess` as the API answers it: false when hidden (the caller answers 404), 402 when unpaid. */
export function checkBoardAccess(facts: BoardAccessFacts, userId: string): boolean {
  const access = boardAccess(facts, userId);
  if (access === 'hidden') return false;
  if (access === 'unpaid') assertPaid(subscriptionSummary(facts), facts.team_id!);
  return true;
}

/** The board of an access row if the user may see it (null otherwise); 402 when its team is unpaid. */
function boardAccessOf(row: BoardAccessRow, userId: string): BoardAccess | null {
  if (!checkBoardAccess(row, userId)) return null;
  const access: BoardAccess = {
    id: row.id,
    team_id: row.team_id,
    owner_id: row.owner_id,
    name: row.name,
    board_type: row.board_type,
    template: row.template,
    created_at: row.created_at,
    subscription: subscriptionSummary(row),
  };
  return access;
}

/**
 * A board the user may see: a team board of one of the user's teams, or the user's own personal board.
 * Team boards are gated on the team's subscription (402); a personal board has no team to gate on.
 * `change`: the write reads the board's lists or fields to decide (the next position, say).
 */
export async function requireBoard(
  db: Executor,
  userId: string,
  boardId: string,
  intent: Intent = 'read',
): Promise<BoardAccess> {
  const row = await findBoardAccess(db, userId, boardId, intent);
  const board = row && boardAccessOf(row, userId);
  if (!board) throw notFound('board', boardId);
  return board;
}

/**
 * A list on a board the user may see (same gate as the board). One query. `change`: the write adds
 * tasks to the list or changes their order.
 */
export async function requireList(
  db: Executor,
  userId: string,
  listId: string,
  intent: Intent = 'read',
): Promise<ListAccess> {
  const list = visibleList(await findListAccess(db, userId, listId, intent), userId);
  if (!list) throw notFound('list', listId);
  return list;
}

/** The list of an access row if the user may see it (null otherwise); 402 when its team is unpaid. */
export function visibleList(row: ListAccessRow | undefined, userId: string): ListAccess | null {
  // The board's id must not leak through a list id the caller cannot see.
  const board = row && boardAccessOf(row, userId);
  if (!row || !board) return null;
  return { id: row.list_id, board_id: board.id, name: row.list_name, position: row.list_position, board };
}
