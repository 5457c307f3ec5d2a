import { webhooks } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.ts';
import { type DomainContext, runInTransaction } from '../../domain/transaction.ts';
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
import { route } from '../route.ts';

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  // Each locks what it reads to decide (its subscription), or decides on nothing it reads (docs/postgresql.md).
  const inTransaction = <T>(ctx: DomainContext, work: (tx: Executor) => Promise<T>) =>
    runInTransaction(ctx, work, 'rows');
  // The resolving part of the target rule runs before the transaction: no write waits on DNS.
  const checkTarget = (url: string) => checkWebhookTarget(url, app.ctx.targets, 'target_url');

  route(app, webhooks.create, async ({ ctx, principal, body }) => {
    await checkTarget(body.target_url);
    return inTransaction(ctx, (tx) => createSubscription(tx, principal, body, ctx.targets, ctx.now()));
  });

  route(app, webhooks.list, ({ ctx, userId, query }) => listSubscriptions(ctx.db, userId, query));

  route(app, webhooks.get, ({ ctx, userId, params }) => getSubscription(ctx.db, userId, params.id));

  route(app, webhooks.update, async ({ ctx, principal, params, body }) => {
    if (body.target_url !== undefined) await checkTarget(body.target_url);
    return inTransaction(ctx, (tx) => updateSubscription(tx, principal, params.id, body, ctx.targets));
  });

  route(app, webhooks.delete, ({ ctx, userId, params }) =>
    inTransaction(ctx, (tx) => deleteSubscription(tx, userId, params.id)),
  );

  route(app, webhooks.test, ({ ctx, userId, params }) =>
    inTransaction(ctx, (tx) => sendTestEvent(tx, userId, params.id, ctx.now())),
  );

  route(app, webhooks.rotateSecret, ({ ctx, userId, params }) =>
    inTransaction(ctx, (tx) => rotateSecret(tx, userId, params.id, ctx.now())),
  );

  route(app, webhooks.listDeliveries, ({ ctx, userId, params, query }) =>
    listDeliveries(ctx.db, userId, params.id, query),
  );

  route(app, webhooks.replayDelivery, ({ ctx, userId, params }) =>
    inTransaction(ctx, (tx) => replayDelivery(tx, userId, params.id, ctx.now())),
  );
}
