// The console's test receiver (docs/console.md): a webhook target on this very server, so that a person
// with no public https endpoint sees a delivery succeed. It takes what the delivery worker posts, checks
// the signature as any receiver should (the shared package's verifySignature, against the secrets of the
// subscription the delivery belongs to), answers 204 or says why not, and keeps the newest requests in
// memory for the deliveries page. Loaded on its first request, like the rest of the console's API.
import type { ConsoleReceived, ConsoleReceiver } from '@threadwork/shared/schemas';
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  verifySignature,
} from '@threadwork/shared/webhooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../domain/errors.ts';
import { parseSecrets } from '../domain/webhooks.ts';
import type { AppContext } from '../http/context.ts';
import { findDelivery } from '../storage/delivery-log.ts';
import { findUserHook } from '../storage/v1-hooks.ts';
import { findUserSubscription } from '../storage/webhooks.ts';

/** Requests kept for the page: enough to follow a session by hand. */
export const RECEIVED_KEPT = 20;

const receivedByServer = new WeakMap<AppContext, ConsoleReceived[]>();

function log(ctx: AppContext): ConsoleReceived[] {
  let received = receivedByServer.get(ctx);
  if (!received) {
    received = [];
    receivedByServer.set(ctx, received);
  }
  return received;
}

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

/** The receiver's state for the deliveries page. */
export function receiverView(app: FastifyInstance, url: string): ConsoleReceiver {
  return {
    // Without the flag the target rule refuses loopback, so a subscription to it could not be made.
    url: app.ctx.options.allowInsecureWebhooks ? url : null,
    received: [...log(app.ctx)],
  };
}

/** Takes one delivery: 204 when it is the console user's and (v2) its signature verifies; else 4xx. */
export async function receive(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const { db, now, consoleUser } = app.ctx;
  const deliveryId = header(request, DELIVERY_ID_HEADER);
  const entry: ConsoleReceived = {
    received_at: now().toISOString(),
    delivery_id: deliveryId,
    event_id: header(request, EVENT_ID_HEADER),
    event_type: null,
    signature: 'invalid',
    error: null,
    status_code: 204,
  };
  const row = deliveryId === null ? undefined : await findDelivery(db, deliveryId);
  entry.event_type = row?.event_type ?? null;
  if (!row || !consoleUser) {
    entry.status_code = 404;
    entry.error = `no delivery ${deliveryId ?? '(no x-service-delivery-id header)'} of the console's user`;
  } else if (row.kind === 'v1') {
    // v1 hooks are unsigned (as the legacy API is); the hook's owner is the check.
    const hook = await findUserHook(db, consoleUser.userId, row.subscription_id);
    entry.signature = 'unsigned';
    if (!hook) {
      entry.status_code = 404;
      entry.error = `the hook of delivery ${deliveryId} is not the console user's`;
    }
  } else {
    const subscription = await findUserSubscription(db, consoleUser.userId, row.subscription_id);
    const secrets = subscription ? parseSecrets(subscription.secrets).map((entry) => entry.secret) : [];
    if (secrets.length === 0) {
      entry.status_code = 404;
      entry.error = `the subscription of delivery ${deliveryId} is not the console user's`;
    } else {
      const verdict = verifySignature({
        payload: request.rawBody ?? '',
        header: request.headers[SIGNATURE_HEADER],
        secrets,
        now: () => now().getTime(),
      });
      if (verdict.ok) entry.signature = 'valid';
      else {
        entry.status_code = 400;
        entry.error = verdict.message;
      }
    }
  }
  const received = log(app.ctx);
  received.unshift(entry);
  received.length = Math.min(received.length, RECEIVED_KEPT);
  if (entry.error !== null) {
    throw new ServiceError(entry.status_code === 404 ? 'not_found' : 'invalid_request', entry.error);
  }
  return reply.code(204).send();
}
