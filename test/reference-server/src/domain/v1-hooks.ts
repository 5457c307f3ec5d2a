// v1 hook subscriptions (REST hooks of the automation platform): subscribe to one action on one list or
// board, unsubscribe by id. Deliveries go through the same outbox and worker as v2 webhooks. A hook
// belongs to the legacy key whose session token made it, and revoking that key deletes it.

import { randomBytes } from 'node:crypto';
import {
  V1_ACTION_TARGETS,
  type V1Object,
  type V1SubscribeRequest,
  type V1Subscription,
} from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { V1HookSubscriptionsTable } from '../db/schema.ts';
import { holdKey } from '../storage/locks.ts';
import { deleteHookRow, deleteKeyHooks, findUserHook, insertHook } from '../storage/v1-hooks.ts';
import { requireBoard, requireList } from './access.ts';
import { invalidField, keyRevoked, notFound } from './errors.ts';
import { subscriptionsChanged } from './events/listeners.ts';
import { checkTargetUrl, type WebhookTargetOptions } from './webhook-targets.ts';
import type { Subscriber } from './webhooks.ts';

function present(row: V1HookSubscriptionsTable): V1Subscription {
  return {
    id: row.id,
    action: row.action,
    entityId: row.entity_id,
    webhookURL: row.webhook_url,
    apiService: row.api_service,
  };
}

/**
 * Subscribes the user to `input.action` on `object`, as the subscriber's key (held until commit, so a
 * revocation cannot miss the hook). The action must belong to the object (V1_ACTION_TARGETS), the URL
 * must pass the webhook target rule, and the entity (a list or a board, per the action) must be one the
 * user can see.
 */
export async function subscribeV1(
  db: Executor,
  subscriber: Subscriber,
  object: V1Object,
  input: V1SubscribeRequest,
  options: WebhookTargetOptions,
  now: Date,
): Promise<V1Subscription> {
  const target = V1_ACTION_TARGETS[input.action];
  if (target.object !== object) {
    throw invalidField('action', `${input.action} is subscribed on ${target.object}, not on ${object}`);
  }
  checkTargetUrl(input.webhookURL, options, 'webhookURL');
  const { userId, keyId } = subscriber;
  if (keyId !== null && !(await holdKey(db, keyId))) throw keyRevoked();
  if (target.entity === 'list') await requireList(db, userId, input.entityId);
  else await requireBoard(db, userId, input.entityId);
  const row: V1HookSubscriptionsTable = {
    // v1 ids are 24 hex digits, like the legacy service's.
    id: randomBytes(12).toString('hex'),
    user_id: userId,
    key_id: keyId,
    action: input.action,
    entity_id: input.entityId,
    webhook_url: input.webhookURL,
    api_service: input.apiService ?? null,
    failing_since: null,
    created_at: now.toISOString(),
  };
  await insertHook(db, row);
  subscriptionsChanged(db);
  return present(row);
}

/**
 * Cancels the user's subscription; deliveries still owed to it are marked failed. 404 if unknown.
 */
export async function unsubscribeV1(db: Executor, userId: string, subscriptionId: string): Promise<void> {
  const owned = await findUserHook(db, userId, subscriptionId);
  if (!owned) throw notFound('subscription', subscriptionId);
  // Cancelled meanwhile by a concurrent request (or by the delivery worker): answered as if it had come first.
  if (!(await deleteHookRow(db, owned.id))) throw notFound('subscription', subscriptionId);
  subscriptionsChanged(db);
}

/**
 * Deletes the key's hooks, as revoking the key does, and answers how many; deliveries still owed to them
 * are marked failed, as an unsubscribe leaves them.
 */
export async function deleteHooksOfKey(tx: Executor, keyId: string): Promise<number> {
  const count = await deleteKeyHooks(tx, keyId);
  if (count > 0) subscriptionsChanged(tx);
  return count;
}
