// v1 items: the legacy face of the tasks domain. Each route (read with its declared v1 schemas) calls
// the tasks domain (which records the same events as v2, so v1 hooks and v2 webhooks both fire) and
// answers bare JSON: an array of Items, `{ id }` or `{ success: true }`. Item ids are v2 task ids.
import { v1 } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.ts';
import { ServiceError } from '../../domain/errors.ts';
import {
  assignTask,
  completeTask,
  createTask,
  moveTask,
  type NewTask,
  unassignTask,
  uncompleteTask,
} from '../../domain/tasks/commands.ts';
import { listAllTasks } from '../../domain/tasks/queries.ts';
import { toV1Item } from '../../domain/tasks/view.ts';
import { type DomainContext, runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';
import type { ValidationDetail } from '../validate.ts';

const SUCCESS = { success: true } as const;

/** The v1 name of each task field the domain may reject, so that a 400 names the field the caller sent. */
const V1_FIELD_NAMES: Readonly<Record<string, string>> = {
  list_id: 'listId',
  title: 'title',
  notes: 'notes',
  due_at: 'dueDate',
  thread_id: 'threadId',
  message_id: 'messageId',
  content_type: 'listItem.contentType',
};

function isDetailList(details: unknown): details is ValidationDetail[] {
  return Array.isArray(details) && details.every((detail) => typeof detail?.path === 'string');
}

/** Runs a domain call, renaming the fields of its validation errors from v2 to v1 names. */
async function inV1Terms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      !(error instanceof ServiceError) ||
      error.code !== 'validation_error' ||
      !isDetailList(error.details)
    ) {
      throw error;
    }
    const details = error.details.map((detail) => ({
      path: V1_FIELD_NAMES[detail.path] ?? detail.path,
      message: detail.message,
    }));
    const message = details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
    throw new ServiceError('validation_error', message, details, { ...error.headers });
  }
}

export async function v1ItemRoutes(app: FastifyInstance): Promise<void> {
  /** Runs one task write in its own transaction, locking the rows it decides on. */
  const write = <T>(ctx: DomainContext, work: (tx: Executor, now: Date) => Promise<T>) =>
    inV1Terms(() => runInTransaction(ctx, (tx) => work(tx, ctx.now()), 'rows'));

  // Archived tasks are left out; completed ones are listed. Board scope: list by list, top to bottom.
  route(app, v1.items, async ({ ctx, userId, query: { boardId, listId } }) =>
    (await listAllTasks(ctx.db, userId, { list_id: listId, board_id: boardId })).map(toV1Item),
  );

  route(app, v1.createItem, async ({ ctx, userId, body }) => {
    const newTask: NewTask = {
      list_id: body.listId,
      title: body.title,
      notes: body.notes,
      due_at: body.dueDate,
    };
    const task = await write(ctx, (tx, now) => createTask(tx, userId, newTask, now));
    return { id: task.id };
  });

  // The title is the thread's subject (listItem.title is ignored); the thread is linked, and messageId
  // must be one of its messages (404 otherwise); archive removes INBOX from the thread.
  route(app, v1.createFromEmail, async ({ ctx, userId, body }) => {
    const newTask: NewTask = {
      list_id: body.listId,
      thread_id: body.threadId,
      message_id: body.messageId,
      archive: body.archive,
      content_type: body.listItem?.contentType,
      due_at: body.dueDate,
    };
    const task = await write(ctx, (tx, now) => createTask(tx, userId, newTask, now));
    return { id: task.id };
  });

  route(app, v1.markComplete, async ({ ctx, userId, body }) => {
    await write(ctx, (tx, now) => completeTask(tx, userId, body.itemId, now));
    return SUCCESS;
  });

  route(app, v1.markIncomplete, async ({ ctx, userId, body }) => {
    await write(ctx, (tx, now) => uncompleteTask(tx, userId, body.itemId, now));
    return SUCCESS;
  });

  // An assignee who is not a member of the board is a 400 validation_error on assigneeEmail, not a 404:
  // the item itself was found, and the answer is the same whether or not an account has that email,
  // so it reveals no one's existence.
  route(app, v1.assignTask, async ({ ctx, userId, body }) => {
    await write(ctx, (tx, now) => assignTask(tx, userId, body.itemId, body.assigneeEmail, now));
    return SUCCESS;
  });

  // assigneeEmail must be the member the item is assigned to (400 on assigneeEmail otherwise).
  route(app, v1.unassignTask, async ({ ctx, userId, body }) => {
    await write(ctx, (tx, now) => unassignTask(tx, userId, body.itemId, body.assigneeEmail, now));
    return SUCCESS;
  });

  // The user must see both the item and the destination list (404 otherwise); it lands at the top.
  route(app, v1.moveTaskToList, async ({ ctx, userId, body }) => {
    await write(ctx, (tx, now) => moveTask(tx, userId, body.itemId, { list_id: body.listId }, now));
    return SUCCESS;
  });
}
