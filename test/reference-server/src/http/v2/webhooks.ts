import {
  CreateWebhookRequest,
  ListDeliveriesQuery,
  PaginationQuery,
  UpdateWebhookRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { checkWebhookTarget } from '../../domain/webhook-targets.ts';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listDeliveries,
  listSubscriptions,
  replayDelivery,
  rotateSecret,
  sendTestEvent,
  updateSubscription,
} from '../../domain/webhooks.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type ById = { Params: { id: string } };

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const guard = v2Guard('webhooks.manage');
  // Each locks what it reads to decide (its subscription), or decides on nothing it reads (docs/postgresql.md).
  const inTransaction = <T>(work: (tx: Executor) => Promise<T>) => runInTransaction(app.ctx, work, 'rows');
  // The resolving part of the target rule runs before the transaction: no write waits on DNS.
  const checkTarget = (url: string) => checkWebhookTarget(url, app.ctx.targets, 'target_url');

  app.post('/webhooks/subscriptions', { preHandler: guard }, async (request, reply) => {
    const input = parseRequest(CreateWebhookRequest, request.body, 'body');
    await checkTarget(input.target_url);
    const subscriber = principalOf(request);
    const created = await inTransaction((tx) =>
      createSubscription(tx, subscriber, input, app.ctx.targets, app.ctx.now()),
    );
    return ok(reply, created);
  });

  app.get('/webhooks/subscriptions', { preHandler: guard }, async (request, reply) => {
    const page = parseRequest(PaginationQuery, request.query, 'query');
    const result = await listSubscriptions(app.ctx.db, principalOf(request).userId, page);
    return ok(reply, result.items, result.pagination);
  });

  app.get<ById>('/webhooks/subscriptions/:id', { preHandler: guard }, async (request, reply) =>
    ok(reply, await getSubscription(app.ctx.db, principalOf(request).userId, request.params.id)),
  );

  app.patch<ById>('/webhooks/subscriptions/:id', { preHandler: guard }, async (request, reply) => {
    const patch = parseRequest(UpdateWebhookRequest, request.body, 'body');
    if (patch.target_url !== undefined) await checkTarget(patch.target_url);
    const subscriber = principalOf(request);
    const updated = await inTransaction((tx) =>
      updateSubscription(tx, subscriber, request.params.id, patch, app.ctx.targets),
    );
    return ok(reply, updated);
  });

  app.delete<ById>('/webhooks/subscriptions/:id', { preHandler: guard }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const deleted = await inTransaction((tx) => deleteSubscription(tx, userId, request.params.id));
    return ok(reply, deleted);
  });

  app.post<ById>('/webhooks/subscriptions/:id/test', { preHandler: guard }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const delivery = await inTransaction((tx) => sendTestEvent(tx, userId, request.params.id, app.ctx.now()));
    return ok(reply, delivery);
  });

  app.post<ById>(
    '/webhooks/subscriptions/:id/rotate-secret',
    { preHandler: guard },
    async (request, reply) => {
      const userId = principalOf(request).userId;
      const rotated = await inTransaction((tx) => rotateSecret(tx, userId, request.params.id, app.ctx.now()));
      return ok(reply, rotated);
    },
  );

  app.get<ById>('/webhooks/subscriptions/:id/deliveries', { preHandler: guard }, async (request, reply) => {
    const query = parseRequest(ListDeliveriesQuery, request.query, 'query');
    const result = await listDeliveries(app.ctx.db, principalOf(request).userId, request.params.id, query);
    return ok(reply, result.items, result.pagination);
  });

  app.post<ById>('/webhooks/deliveries/:id/replay', { preHandler: guard }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const delivery = await inTransaction((tx) =>
      replayDelivery(tx, userId, request.params.id, app.ctx.now()),
    );
    return ok(reply, delivery);
  });
}
