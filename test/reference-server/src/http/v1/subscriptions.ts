// v1 REST hooks: POST /{object}/subscribe answers the Subscription; POST /{object}/unsubscribe answers
// 200 with no body. Answers are bare (no envelope); errors use the common error body.
import { V1_OBJECTS, V1SubscribeRequest, V1UnsubscribeRequest } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { runInTransaction } from '../../domain/transaction.ts';
import { subscribeV1, unsubscribeV1 } from '../../domain/v1-hooks.ts';
import { checkWebhookTarget } from '../../domain/webhook-targets.ts';
import { v1Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

export async function v1SubscriptionRoutes(app: FastifyInstance): Promise<void> {
  const guard = v1Guard('webhooks.manage');
  for (const object of V1_OBJECTS) {
    app.post(`/${object}/subscribe`, { preHandler: guard }, async (request, reply) => {
      const input = parseRequest(V1SubscribeRequest, request.body, 'body');
      // The resolving part of the target rule runs before the transaction: no write waits on DNS.
      await checkWebhookTarget(input.webhookURL, app.ctx.targets, 'webhookURL');
      const subscriber = principalOf(request);
      const subscription = await runInTransaction(
        app.ctx,
        (tx) => subscribeV1(tx, subscriber, object, input, app.ctx.targets, app.ctx.now()),
        'rows',
      );
      return reply.code(200).send(subscription);
    });

    app.post(`/${object}/unsubscribe`, { preHandler: guard }, async (request, reply) => {
      const { subscriptionId } = parseRequest(V1UnsubscribeRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      await runInTransaction(app.ctx, (tx) => unsubscribeV1(tx, userId, subscriptionId), 'rows');
      return reply.code(200).send();
    });
  }
}
