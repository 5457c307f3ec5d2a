import { tasks } from '@threadwork/shared/operations';
import type { ListTasksQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
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
import { keptPages } from '../envelope.ts';
import { route } from '../route.ts';

/** A list's or a board's tasks, polled by every client of a board: kept rendered between writes. */
const tasksPage = keptPages('GET /v2/tasks', (db, userId, query: ListTasksQuery) => {
  const { limit, cursor, ...filter } = query;
  return listTasks(db, userId, filter, { limit, cursor });
});

export async function taskRoutes(app: FastifyInstance): Promise<void> {
  // Task commands lock the rows they decide on (`rows`), so they run beside each other (docs/postgresql.md).

  route(app, tasks.list, ({ ctx, reply, userId, query }) => tasksPage(reply, ctx.db, userId, query));

  route(app, tasks.get, ({ ctx, userId, params }) => getTask(ctx.db, userId, params.id));

  route(app, tasks.create, ({ ctx, userId, body }) =>
    runInTransaction(ctx, (tx) => createTask(tx, userId, body, ctx.now()), 'rows'),
  );

  route(app, tasks.update, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => updateTask(tx, userId, params.id, body, ctx.now()), 'rows'),
  );

  route(app, tasks.complete, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => completeTask(tx, userId, params.id, ctx.now()), 'rows'),
  );

  route(app, tasks.move, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => moveTask(tx, userId, params.id, body, ctx.now()), 'rows'),
  );

  route(app, tasks.reorder, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => reorderTask(tx, userId, params.id, body, ctx.now()), 'rows'),
  );

  route(app, tasks.linkThread, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => linkThread(tx, userId, params.id, body, ctx.now()), 'rows'),
  );

  route(app, tasks.archive, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => archiveTask(tx, userId, params.id, ctx.now()), 'rows'),
  );

  route(app, tasks.delete, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => deleteTask(tx, userId, params.id, ctx.now()), 'rows'),
  );
}
