import { z } from 'zod';
import { NameString, openEnum, prefixedId } from '../common.ts';

export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'trial_expired',
  'past_due',
  'unpaid',
  'cancelled',
  'cancel_pending',
  'migration_pending',
  'unknown',
] as const;
export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** The statuses that still grant a plan: `paid` is a plan other than `free` in one of these. */
export const PAID_STATUSES = [
  'active',
  'trialing',
  'past_due',
  'cancel_pending',
  'migration_pending',
] as const satisfies readonly SubscriptionStatus[];

/** Null when the team has no subscription record. `paid` is the same check the API gates on. */
export const SubscriptionSummary = z
  .looseObject({
    plan: z.string().nullable(),
    status: openEnum(SUBSCRIPTION_STATUSES),
    paid: z.boolean(),
  })
  .nullable();
export type SubscriptionSummary = z.infer<typeof SubscriptionSummary>;

export const Team = z.looseObject({
  id: z.string(),
  name: z.string(),
  subscription: SubscriptionSummary,
});
export type Team = z.infer<typeof Team>;

export const BOARD_TYPES = ['private', 'shared', 'sales'] as const;

export const Board = z.looseObject({
  id: z.string(),
  name: z.string(),
  board_type: openEnum(BOARD_TYPES),
  template: z.string().nullable(),
  team_id: z.string().nullable(),
  subscription: SubscriptionSummary,
});
export type Board = z.infer<typeof Board>;

/**
 * Who may be assigned a board's tasks (GET /boards/{id}/members): a team board's members are its team's,
 * a personal board's its owner.
 */
export const BoardMember = z.looseObject({
  user_id: z.string(),
  email: z.string(),
  display_name: z.string().nullable(),
});
export type BoardMember = z.infer<typeof BoardMember>;

export const List = z.looseObject({
  id: z.string(),
  name: z.string(),
  board_id: z.string(),
});
export type List = z.infer<typeof List>;

export const CreateBoardRequest = z.strictObject({
  team_id: z.string().min(1),
  name: NameString,
});
export type CreateBoardRequest = z.infer<typeof CreateBoardRequest>;

export const UpdateBoardRequest = z.strictObject({ name: NameString });
export type UpdateBoardRequest = z.infer<typeof UpdateBoardRequest>;

export const CreateListRequest = z.strictObject({ name: NameString });
export type CreateListRequest = z.infer<typeof CreateListRequest>;

export const UpdateListRequest = CreateListRequest;
export type UpdateListRequest = z.infer<typeof UpdateListRequest>;

export const BoardId = prefixedId('brd');
export const ListId = prefixedId('lst');

export const ListBoardsQuery = z.strictObject({ team_id: z.string().min(1) });
