// Events: every state change records its event here, inside the change's own transaction, and the
// event is fanned out at once into the delivery outbox: one row per v2 subscription and per v1 hook
// that should hear of it, among those whose owner may see what changed.
import {
  type EmailMessage,
  type EmailThread,
  type EventType,
  type LinkedTask,
  type PreviousAttributes,
  type Task,
  V1_ACTION_TARGETS,
  type V1Action,
  type V1Item,
} from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import {
  boardWithMembers,
  hooksOn,
  subscriptionsNaming,
  type V2Candidate,
  writeEvent,
  writeHookPayload,
} from '../../storage/events.ts';
import { listeners } from '../../storage/listeners.ts';
import { boardsOfTasks } from '../../storage/tasks.ts';
import { boardAccess } from '../access.ts';
import { newId } from '../ids.ts';
import { noteChange } from './feed.ts';
import { enqueueDeliveries, enqueueDelivery, type NewDelivery } from './outbox.ts';

export type TaskEventKind =
  | 'created'
  | 'updated'
  | 'completed'
  | 'uncompleted'
  | 'assigned'
  | 'moved'
  | 'archived'
  | 'deleted';

export interface TaskChange {
  kind: TaskEventKind;
  /** The task after the change (for `deleted`, as it was just before). */
  task: Task;
  /** The same task as v1 shows it, the body of every v1 hook: made only when a v1 hook listens. */
  item(): V1Item;
  boardId: string;
  /** The task's list after the change (for `moved`, the destination). */
  listId: string;
  /** `moved` only: the list the task left. */
  fromListId?: string;
  /** `updated` only: each field that changed, with its value before (`data.previous_attributes`). */
  previous?: PreviousAttributes;
  /** The board's team (null for a personal board), when the caller knows it: saves a query. */
  teamId?: string | null;
}

/** Which v1 actions each task event fires; which entity each action watches is V1_ACTION_TARGETS. */
export const V1_ACTIONS_BY_KIND: Readonly<Record<TaskEventKind, readonly V1Action[]>> = {
  created: ['createOnList', 'createOnBoard'],
  updated: [],
  completed: ['itemCompleted'],
  uncompleted: [],
  assigned: ['assignedTo'],
  moved: ['movedToList'],
  archived: ['itemArchived'],
  deleted: ['itemDeleted'],
};

interface StoredEvent {
  id: string;
  type: EventType;
}

async function insertEvent(
  tx: Executor,
  type: EventType,
  data: Record<string, unknown>,
  refs: { teamId?: string | null; boardId?: string; listId?: string; taskId?: string; userId?: string },
  at: Date,
): Promise<StoredEvent> {
  const id = newId('evt');
  await writeEvent(
    tx,
    { id, type, createdAt: at.toISOString(), data: JSON.stringify(data) },
    {
      teamId: refs.teamId ?? null,
      boardId: refs.boardId ?? null,
      listId: refs.listId ?? null,
      taskId: refs.taskId ?? null,
      userId: refs.userId ?? null,
    },
  );
  return { id, type };
}

/**
 * The board's team, and which of `userIds` may see the board, in one query: those to whom
 * `boardAccess` opens it (reading the board would succeed).
 */
async function boardAudience(
  tx: Executor,
  boardId: string,
  userIds: readonly string[],
): Promise<{ teamId: string | null; viewers: Set<string> }> {
  const candidates = [...new Set(userIds)];
  const rows = await boardWithMembers(tx, boardId, candidates);
  const board = rows[0];
  if (!board) return { teamId: null, viewers: new Set() };
  const members = new Set(rows.map((row) => row.member_id));
  const viewers = candidates.filter(
    (userId) => boardAccess({ ...board, member_id: members.has(userId) ? userId : null }, userId) === 'open',
  );
  return { teamId: board.team_id, viewers: new Set(viewers) };
}

function v2DeliveriesOf(event: StoredEvent, subscriptions: readonly V2Candidate[]): NewDelivery[] {
  return subscriptions.map((subscription) => ({
    kind: 'v2',
    subscriptionId: subscription.id,
    eventId: event.id,
    eventType: event.type,
    suppressed: subscription.status !== 'active',
  }));
}

/** v1 hooks on any of the actions the event fires, each on the entity its action watches. */
async function v1HooksFor(
  tx: Executor,
  change: TaskChange,
): Promise<{ id: string; user_id: string; action: string }[]> {
  const actions = V1_ACTIONS_BY_KIND[change.kind];
  if (actions.length === 0) return [];
  const entityOf = (action: V1Action) =>
    V1_ACTION_TARGETS[action].entity === 'list' ? change.listId : change.boardId;
  return hooksOn(
    tx,
    actions.map((action) => ({ action, entityId: entityOf(action) })),
  );
}

/**
 * Records a task event and queues its deliveries: to every v2 subscription that names the event type
 * and whose owner can see the task's board, and to every v1 hook on a matching action and entity whose
 * owner can see the board. Call inside `runInTransaction`, in the transaction that made the change.
 */
export async function recordTaskEvent(tx: Executor, change: TaskChange, at: Date): Promise<void> {
  const type = `task.${change.kind}` as const satisfies EventType;
  let data: Record<string, unknown> = { task: change.task };
  if (change.kind === 'moved') {
    if (change.fromListId === undefined) throw new Error('a task.moved event needs fromListId');
    data = { task: change.task, from_list_id: change.fromListId, to_list_id: change.listId };
  } else if (change.kind === 'updated') {
    // An update that changed nothing records no event at all (docs/webhooks.md).
    if (change.previous === undefined || Object.keys(change.previous).length === 0) {
      throw new Error('a task.updated event needs what changed (previous)');
    }
    data = { task: change.task, previous_attributes: change.previous };
  }
  const listening = await listeners(tx);
  const v2 = listening.v2 ? await subscriptionsNaming(tx, type) : [];
  const v1 = listening.v1 ? await v1HooksFor(tx, change) : [];
  const candidates = [...v2, ...v1].map((subscription) => subscription.user_id);
  // No one to tell: the audience is empty and the caller already knows the team.
  const { teamId, viewers } =
    candidates.length === 0 && change.teamId !== undefined
      ? { teamId: change.teamId, viewers: new Set<string>() }
      : await boardAudience(tx, change.boardId, candidates);
  const event = await insertEvent(
    tx,
    type,
    data,
    { teamId, boardId: change.boardId, listId: change.listId, taskId: change.task.id },
    at,
  );
  noteChange(tx, {
    topic: 'task',
    type,
    task_id: change.task.id,
    board_id: change.boardId,
    list_id: change.listId,
    ...(change.fromListId === undefined ? {} : { from_list_id: change.fromListId }),
  });
  const hooks: NewDelivery[] = v1
    .filter((hook) => viewers.has(hook.user_id))
    .map((hook) => ({
      kind: 'v1',
      subscriptionId: hook.id,
      eventId: event.id,
      eventType: hook.action,
      suppressed: false,
    }));
  if (hooks.length > 0) {
    await writeHookPayload(tx, event.id, JSON.stringify(change.item()));
  }
  await enqueueDeliveries(
    tx,
    [
      ...v2DeliveriesOf(
        event,
        v2.filter((subscription) => viewers.has(subscription.user_id)),
      ),
      ...hooks,
    ],
    at,
  );
}

/**
 * Records an inbound message on a thread of `userId`'s mailbox (`thread.reply_received`) and queues it
 * for that user's subscriptions: with filters.scope `all` always, with `tasked` (the default) only when
 * the thread has a linked task the user can see. Linked tasks the user cannot see are left out of the
 * event; message and thread bodies are never sent.
 */
export async function recordReplyReceived(
  tx: Executor,
  input: { userId: string; thread: EmailThread; message: EmailMessage; linkedTasks: LinkedTask[] },
  at: Date,
): Promise<void> {
  const linkedTasks = await visibleLinkedTasks(tx, input.userId, input.linkedTasks);
  const { messages: _messages, linked_tasks: _linked, ...thread } = input.thread;
  const { body_text: _text, body_html: _html, ...message } = input.message;
  const event = await insertEvent(
    tx,
    'thread.reply_received',
    { thread, message, linked_tasks: linkedTasks },
    { userId: input.userId },
    at,
  );
  const subscriptions = (await listeners(tx)).v2
    ? await subscriptionsNaming(tx, 'thread.reply_received', input.userId)
    : [];
  await enqueueDeliveries(
    tx,
    v2DeliveriesOf(
      event,
      subscriptions.filter((subscription) => subscription.filters?.scope === 'all' || linkedTasks.length > 0),
    ),
    at,
  );
}

async function visibleLinkedTasks(tx: Executor, userId: string, linked: LinkedTask[]): Promise<LinkedTask[]> {
  if (linked.length === 0) return [];
  const boardOf = await boardsOfTasks(
    tx,
    linked.map((task) => task.id),
  );
  const viewable = new Map<string, boolean>();
  const visible: LinkedTask[] = [];
  for (const task of linked) {
    const boardId = boardOf.get(task.id);
    if (boardId === undefined) continue;
    if (!viewable.has(boardId)) {
      viewable.set(boardId, (await boardAudience(tx, boardId, [userId])).viewers.has(userId));
    }
    if (viewable.get(boardId)) visible.push({ id: task.id, title: task.title });
  }
  return visible;
}

/** Records a `webhook.test` event addressed to one subscription only; returns the delivery id. */
export async function recordTestEvent(
  tx: Executor,
  subscription: { id: string; userId: string },
  at: Date,
): Promise<string> {
  const event = await insertEvent(
    tx,
    'webhook.test',
    { subscription_id: subscription.id },
    { userId: subscription.userId },
    at,
  );
  return enqueueDelivery(
    tx,
    {
      kind: 'v2',
      subscriptionId: subscription.id,
      eventId: event.id,
      eventType: event.type,
      suppressed: false,
      manual: true,
    },
    at,
  );
}
