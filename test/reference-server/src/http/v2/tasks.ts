import {
  CreateTaskRequest,
  LinkThreadRequest,
  ListTasksQuery,
  MoveTaskRequest,
  ReorderTaskRequest,
  type Scope,
  UpdateTaskRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../../db/executor.ts';
import { ServiceError } from '../../domain/errors.ts';
import {
  archiveTask,
  completeTask,
  createTask,
  deleteTask,
  linkThread,
  moveTask,
  reorderTask,
  updateTask,
} from '../../domain/tasks/commands.ts';
import { getTask, listTasks } from '../../domain/tasks/queries.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { keptPages, ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type WithId = { Params: { id: string } };

/** A scope needed only when the body carries `field`: checked before the body is validated. */
function requireScopeWhenSent(request: FastifyRequest, field: string, scope: Scope): void {
  const body = request.body;
  const sent =
    typeof body === 'object' && body !== null && (body as Record<string, unknown>)[field] !== undefined;
  if (sent && !principalOf(request).scopes.has(scope)) {
    throw new ServiceError('insufficient_scope', `sending ${field} needs the scope ${scope}`, {
      required_scopes: [scope],
    });
  }
}

/** A list's or a board's tasks, polled by every client of a board: kept rendered between writes. */
const tasksPage = keptPages('GET /v2/tasks', (db, userId, query: ListTasksQuery) => {
  const { limit, cursor, ...filter } = query;
  return listTasks(db, userId, filter, { limit, cursor });
});

export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  /** Task commands lock the rows they decide on, so they run beside each other (docs/postgresql.md). */
  const inTaskTransaction = <T>(work: (tx: Executor) => Promise<T>) => runInTransaction(ctx, work, 'rows');

  app.get('/tasks', { preHandler: v2Guard('tasks.read') }, async (request, reply) => {
    const query = parseRequest(ListTasksQuery, request.query, 'query');
    return tasksPage(reply, ctx.db, principalOf(request).userId, query);
  });

  app.get<WithId>('/tasks/:id', { preHandler: v2Guard('tasks.read') }, async (request, reply) => {
    return ok(reply, await getTask(ctx.db, principalOf(request).userId, request.params.id));
  });

  app.post('/tasks', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    requireScopeWhenSent(request, 'thread_id', 'email.metadata.read');
    const input = parseRequest(CreateTaskRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const task = await inTaskTransaction((tx) => createTask(tx, userId, input, ctx.now()));
    return ok(reply, task);
  });

  app.patch<WithId>('/tasks/:id', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    requireScopeWhenSent(request, 'custom_fields', 'customfields.write');
    const patch = parseRequest(UpdateTaskRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const task = await inTaskTransaction((tx) => updateTask(tx, userId, request.params.id, patch, ctx.now()));
    return ok(reply, task);
  });

  app.post<WithId>('/tasks/:id/complete', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const task = await inTaskTransaction((tx) => completeTask(tx, userId, request.params.id, ctx.now()));
    return ok(reply, task);
  });

  app.post<WithId>('/tasks/:id/move', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    const move = parseRequest(MoveTaskRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const task = await inTaskTransaction((tx) => moveTask(tx, userId, request.params.id, move, ctx.now()));
    return ok(reply, task);
  });

  app.post<WithId>('/tasks/:id/reorder', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    const reorder = parseRequest(ReorderTaskRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const result = await inTaskTransaction((tx) =>
      reorderTask(tx, userId, request.params.id, reorder, ctx.now()),
    );
    return ok(reply, result);
  });

  app.post<WithId>(
    '/tasks/:id/threads',
    { preHandler: v2Guard('tasks.write', 'email.metadata.read') },
    async (request, reply) => {
      const link = parseRequest(LinkThreadRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const result = await inTaskTransaction((tx) =>
        linkThread(tx, userId, request.params.id, link, ctx.now()),
      );
      return ok(reply, result);
    },
  );

  app.post<WithId>('/tasks/:id/archive', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const task = await inTaskTransaction((tx) => archiveTask(tx, userId, request.params.id, ctx.now()));
    return ok(reply, task);
  });

  app.delete<WithId>('/tasks/:id', { preHandler: v2Guard('tasks.write') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const deleted = await inTaskTransaction((tx) => deleteTask(tx, userId, request.params.id, ctx.now()));
    return ok(reply, deleted);
  });
}
