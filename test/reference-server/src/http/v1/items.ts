// v1 items: the legacy face of the tasks domain. Each route validates with the shared v1 schema, calls
// the tasks domain (which records the same events as v2, so v1 hooks and v2 webhooks both fire) and
// answers bare JSON: an array of Items, `{ id }` or `{ success: true }`. Item ids are v2 task ids.
import {
  V1AssignRequest,
  V1CreateFromEmailRequest,
  V1CreateItemRequest,
  V1ItemIdRequest,
  V1ListItemsQuery,
  V1MoveRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { runInTransaction } from '../../domain/transaction.ts';
import { v1Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest, type ValidationDetail } from '../validate.ts';

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
  const { ctx } = app;
  // Each route needs the scope of the v2 operation it matches (docs/scopes-and-keys.md).
  const reads = v1Guard('tasks.read');
  const writes = v1Guard('tasks.write');
  // As v2's POST /tasks with thread_id: the task is built from the thread.
  const fromEmail = v1Guard('tasks.write', 'email.metadata.read');

  /** Runs one task write in its own transaction, as the calling user, locking the rows it decides on. */
  const write = <T>(
    request: FastifyRequest,
    work: (tx: Executor, userId: string, now: Date) => Promise<T>,
  ) => {
    const userId = principalOf(request).userId;
    return inV1Terms(() => runInTransaction(ctx, (tx) => work(tx, userId, ctx.now()), 'rows'));
  };

  // Archived tasks are left out; completed ones are listed. Board scope: list by list, top to bottom.
  app.get('/items', { preHandler: reads }, async (request, reply) => {
    const { boardId, listId } = parseRequest(V1ListItemsQuery, request.query, 'query');
    const userId = principalOf(request).userId;
    const tasks = await listAllTasks(ctx.db, userId, { list_id: listId, board_id: boardId });
    return reply.code(200).send(tasks.map(toV1Item));
  });

  app.post('/items', { preHandler: writes }, async (request, reply) => {
    const input = parseRequest(V1CreateItemRequest, request.body, 'body');
    const task = await write(request, (tx, userId, now) =>
      createTask(
        tx,
        userId,
        { list_id: input.listId, title: input.title, notes: input.notes, due_at: input.dueDate },
        now,
      ),
    );
    return reply.code(200).send({ id: task.id });
  });

  // The title is the thread's subject (listItem.title is ignored); the thread is linked, and messageId
  // must be one of its messages (404 otherwise); archive removes INBOX from the thread.
  app.post('/items/createFromEmail', { preHandler: fromEmail }, async (request, reply) => {
    const input = parseRequest(V1CreateFromEmailRequest, request.body, 'body');
    const newTask: NewTask = {
      list_id: input.listId,
      thread_id: input.threadId,
      message_id: input.messageId,
      archive: input.archive,
      content_type: input.listItem?.contentType,
      due_at: input.dueDate,
    };
    const task = await write(request, (tx, userId, now) => createTask(tx, userId, newTask, now));
    return reply.code(200).send({ id: task.id });
  });

  app.post('/items/markComplete', { preHandler: writes }, async (request, reply) => {
    const { itemId } = parseRequest(V1ItemIdRequest, request.body, 'body');
    await write(request, (tx, userId, now) => completeTask(tx, userId, itemId, now));
    return reply.code(200).send(SUCCESS);
  });

  app.post('/items/markIncomplete', { preHandler: writes }, async (request, reply) => {
    const { itemId } = parseRequest(V1ItemIdRequest, request.body, 'body');
    await write(request, (tx, userId, now) => uncompleteTask(tx, userId, itemId, now));
    return reply.code(200).send(SUCCESS);
  });

  // An assignee who is not a member of the board is a 400 validation_error on assigneeEmail, not a 404:
  // the item itself was found, and the answer is the same whether or not an account has that email,
  // so it reveals no one's existence.
  app.post('/items/assignTask', { preHandler: writes }, async (request, reply) => {
    const { itemId, assigneeEmail } = parseRequest(V1AssignRequest, request.body, 'body');
    await write(request, (tx, userId, now) => assignTask(tx, userId, itemId, assigneeEmail, now));
    return reply.code(200).send(SUCCESS);
  });

  // assigneeEmail must be the member the item is assigned to (400 on assigneeEmail otherwise).
  app.post('/items/unassignTask', { preHandler: writes }, async (request, reply) => {
    const { itemId, assigneeEmail } = parseRequest(V1AssignRequest, request.body, 'body');
    await write(request, (tx, userId, now) => unassignTask(tx, userId, itemId, assigneeEmail, now));
    return reply.code(200).send(SUCCESS);
  });

  // The user must see both the item and the destination list (404 otherwise); it lands at the top.
  app.post('/items/moveTaskToList', { preHandler: writes }, async (request, reply) => {
    const { itemId, listId } = parseRequest(V1MoveRequest, request.body, 'body');
    await write(request, (tx, userId, now) => moveTask(tx, userId, itemId, { list_id: listId }, now));
    return reply.code(200).send(SUCCESS);
  });
}
