// v1 REST hooks: POST /{object}/subscribe answers the Subscription; POST /{object}/unsubscribe answers
// 200 with no body. Answers are bare (no envelope); errors use the common error body.
import { v1Hooks } from '@threadwork/shared/operations';
import { V1_OBJECTS } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { runInTransaction } from '../../domain/transaction.ts';
import { subscribeV1, unsubscribeV1 } from '../../domain/v1-hooks.ts';
import { checkWebhookTarget } from '../../domain/webhook-targets.ts';
import { route } from '../route.ts';

export async function v1SubscriptionRoutes(app: FastifyInstance): Promise<void> {
  for (const object of V1_OBJECTS) {
    route(app, v1Hooks[object].subscribe, async ({ ctx, principal, body }) => {
      // The resolving part of the target rule runs before the transaction: no write waits on DNS.
      await checkWebhookTarget(body.webhookURL, ctx.targets, 'webhookURL');
      return runInTransaction(
        ctx,
        (tx) => subscribeV1(tx, principal, object, body, ctx.targets, ctx.now()),
        'rows',
      );
    });

    route(app, v1Hooks[object].unsubscribe, async ({ ctx, userId, body }) => {
      await runInTransaction(ctx, (tx) => unsubscribeV1(tx, userId, body.subscriptionId), 'rows');
      return undefined;
    });
  }
}
