// The events repository: an event's row, the v1 item a hook is sent, the outbox rows that queue its
// deliveries (`webhook_deliveries`), and who may hear of it (the subscriptions and hooks that name it,
// the board's audience). Which deliveries an event makes is domain/events/record.ts's rule. Every
// write here is one whose outcome nothing reads: on PostgreSQL it travels with the transaction's next
// statement (db/transaction.ts `writeLater`).
import type { EventType, V1Action, WebhookFilters } from '@threadwork/shared/schemas';
import type { Insertable } from 'kysely';
import type { Executor } from '../db/executor.ts';
import { prepareQuery } from '../db/prepared.ts';
import type { WebhookDeliveriesTable } from '../db/schema.ts';
import { writeLater } from '../db/transaction.ts';

const insertEventRow = prepareQuery(
  (
    db: Executor,
    id: string,
    type: string,
    createdAt: string,
    teamId: string | null,
    boardId: string | null,
    listId: string | null,
    taskId: string | null,
    userId: string | null,
    data: string,
  ) =>
    db.insertInto('events').values({
      id,
      type,
      created_at: createdAt,
      team_id: teamId,
      board_id: boardId,
      list_id: listId,
      task_id: taskId,
      user_id: userId,
      data,
    }),
);

/** What an event refers to (each null when it refers to nothing of that kind). */
export interface EventRefs {
  teamId: string | null;
  boardId: string | null;
  listId: string | null;
  taskId: string | null;
  userId: string | null;
}

/** Writes an event's row. */
export async function writeEvent(
  tx: Executor,
  event: { id: string; type: EventType; createdAt: string; data: string },
  refs: EventRefs,
): Promise<void> {
  await insertEventRow.writeLater(
    tx,
    event.id,
    event.type,
    event.createdAt,
    refs.teamId,
    refs.boardId,
    refs.listId,
    refs.taskId,
    refs.userId,
    event.data,
  );
}

/** Writes the v1 item every hook hearing of the event is sent (JSON text). */
export async function writeHookPayload(tx: Executor, eventId: string, body: string): Promise<void> {
  await writeLater(tx, tx.insertInto('v1_hook_payloads').values({ event_id: eventId, body }));
}

/** Adds rows to the outbox, in one statement. */
export async function writeDeliveries(
  tx: Executor,
  rows: readonly Insertable<WebhookDeliveriesTable>[],
): Promise<void> {
  await writeLater(tx, tx.insertInto('webhook_deliveries').values([...rows]));
}

/**
 * The board's team, owner and plan, once per user of `candidates` who is a member of its team
 * (`member_id`; a single row with none when no candidate is): what decides who may see it.
 */
export async function boardWithMembers(tx: Executor, boardId: string, candidates: readonly string[]) {
  const query = tx
    .selectFrom('boards')
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select(['boards.team_id', 'boards.owner_id', 'subscriptions.plan', 'subscriptions.status'])
    .where('boards.id', '=', boardId);
  return candidates.length === 0
    ? (await query.execute()).map((row) => ({ ...row, member_id: null }))
    : await query
        .leftJoin('team_members', (join) =>
          join
            .onRef('team_members.team_id', '=', 'boards.team_id')
            .on('team_members.user_id', 'in', [...candidates]),
        )
        .select('team_members.user_id as member_id')
        .execute();
}

/** A v2 subscription that may hear of an event. */
export interface V2Candidate {
  id: string;
  user_id: string;
  status: string;
  filters: WebhookFilters | null;
}

/** v2 subscriptions whose events include `type`, optionally of one user. */
export async function subscriptionsNaming(
  tx: Executor,
  type: EventType,
  userId?: string,
): Promise<V2Candidate[]> {
  let query = tx
    .selectFrom('webhook_subscriptions')
    .select(['id', 'user_id', 'status', 'events', 'filters'])
    // A cheap pre-filter on the JSON text; the exact check follows.
    .where('events', 'like', `%"${type}"%`);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  return rows
    .filter((row) => (JSON.parse(row.events) as string[]).includes(type))
    .map((row) => ({
      id: row.id,
      user_id: row.user_id,
      status: row.status,
      filters: row.filters === null ? null : (JSON.parse(row.filters) as WebhookFilters),
    }));
}

/** v1 hooks on any of these actions, each on its entity, oldest first. */
export function hooksOn(
  tx: Executor,
  targets: readonly { action: V1Action; entityId: string }[],
): Promise<{ id: string; user_id: string; action: string }[]> {
  return tx
    .selectFrom('v1_hook_subscriptions')
    .select(['id', 'user_id', 'action'])
    .where((eb) =>
      eb.or(
        targets.map(({ action, entityId }) =>
          eb.and([eb('action', '=', action), eb('entity_id', '=', entityId)]),
        ),
      ),
    )
    .orderBy('created_at')
    .execute();
}
