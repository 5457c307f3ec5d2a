import { webhooks } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
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
import { route } from '../route.ts';

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  // Each write locks what it reads to decide (its subscription), or decides on nothing it reads, so
  // runs as `rows` (docs/postgresql.md).

  // The resolving part of the target rule runs before the transaction: no write waits on DNS.
  const checkTarget = (url: string) => checkWebhookTarget(url, app.ctx.targets, 'target_url');

  route(app, webhooks.create, async ({ ctx, principal, body }) => {
    await checkTarget(body.target_url);
    return runInTransaction(
      ctx,
      (tx) => createSubscription(tx, principal, body, ctx.targets, ctx.now()),
      'rows',
    );
  });

  route(app, webhooks.list, ({ ctx, userId, query }) => listSubscriptions(ctx.db, userId, query));

  route(app, webhooks.get, ({ ctx, userId, params }) => getSubscription(ctx.db, userId, params.id));

  route(app, webhooks.update, async ({ ctx, principal, params, body }) => {
    if (body.target_url !== undefined) await checkTarget(body.target_url);
    return runInTransaction(
      ctx,
      (tx) => updateSubscription(tx, principal, params.id, body, ctx.targets),
      'rows',
    );
  });

  route(app, webhooks.delete, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => deleteSubscription(tx, userId, params.id), 'rows'),
  );

  route(app, webhooks.test, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => sendTestEvent(tx, userId, params.id, ctx.now()), 'rows'),
  );

  route(app, webhooks.rotateSecret, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => rotateSecret(tx, userId, params.id, ctx.now()), 'rows'),
  );

  route(app, webhooks.listDeliveries, ({ ctx, userId, params, query }) =>
    listDeliveries(ctx.db, userId, params.id, query),
  );

  route(app, webhooks.replayDelivery, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => replayDelivery(tx, userId, params.id, ctx.now()), 'rows'),
  );
}
