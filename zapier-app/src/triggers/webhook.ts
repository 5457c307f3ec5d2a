/**
 * One factory for the instant triggers on v2 webhook subscriptions. Subscribing and unsubscribing mint a
 * fresh session token first (as the v1 hooks do). Subscribing creates a new subscription every time (a
 * fresh Idempotency-Key per subscribe), so turning a Zap on again never hands back one deleted since; the
 * subscription's id and secret become Zapier's `subscribeData`. Unsubscribing one that is already gone
 * (deleted on the service, or disabled and removed) succeeds, so the Zap can always be turned off.
 * `perform` checks the delivery's `x-service-signature` over the raw body with that secret (300 s
 * tolerance) and rejects a bad or stale one before reading anything; it makes no request.
 */
import type { EventType, FILTER_SCOPES, WebhookEvent } from '@threadwork/shared';
import { NotFoundError } from '@threadwork/shared/light';
import type { Bundle, Trigger, ZObject } from 'zapier-platform-core';
import { exchangeCredentials, tokenToUnsubscribe } from '../authentication.ts';
import type { InputField } from '../creates/fields.ts';
import type { OutputField } from '../creates/resources.ts';
import { v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { runKey } from '../lib/idempotency.ts';
import { loadShared } from '../lib/load.ts';
import { deliveryHeader } from './hook-request.ts';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

interface WebhookSubscribeData {
  id: string;
  secret: string;
}

/**
 * `O` is the trigger's output; `R` what `output` and `performList` give before `complete` (the same unless
 * `complete` turns one into the other).
 */
export interface WebhookTriggerOptions<O extends { id: string }, R extends { id: string } = O> {
  key: string;
  noun: string;
  label: string;
  /** Begins "Triggers when". */
  description: string;
  /** The v2 event type subscribed to. */
  event: EventType;
  inputFields: InputField[];
  /** The subscription's filters (what the service narrows itself); none when undefined. */
  filters?: (bundle: Bundle) => { scope: (typeof FILTER_SCOPES)[number] } | undefined;
  /** What one verified event of type `event` gives; undefined when it does not concern this Zap. */
  output: (event: WebhookEvent, bundle: Bundle) => R | undefined;
  /** Samples: live data in the shape `output` gives. */
  performList: (z: ZObject, bundle: Bundle) => Promise<R[]>;
  /** What deliveries and samples alike add after `output` (e.g. custom fields' option labels). */
  complete?: (z: ZObject, bundle: Bundle, items: R[]) => Promise<O[]>;
  sample: O;
  outputFields: OutputField[];
}

export function webhookTrigger<O extends { id: string }, R extends { id: string } = O>(
  options: WebhookTriggerOptions<O, R>,
): Trigger {
  const complete = (z: ZObject, bundle: Bundle, items: R[]): Promise<O[]> | O[] =>
    options.complete === undefined ? (items as unknown as O[]) : options.complete(z, bundle, items);

  const performSubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const token = await exchangeCredentials(z, bundle);
    const filters = options.filters?.(bundle);
    // One key per subscribe (its retries resend it): a key derived from the target URL would, after the hook
    // was deleted, replay the deleted subscription instead of creating a live one.
    const created = await (await v2Client(z, bundle, { token })).webhooks.create(
      {
        target_url: bundle.targetUrl ?? '',
        events: [options.event],
        ...(filters === undefined ? {} : { filters }),
      },
      { idempotencyKey: runKey(`${options.key}.subscribe`) },
    );
    return { id: created.id, secret: created.secret, ...(filters === undefined ? {} : filters) };
  });

  const performUnsubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const subscriptionId = (bundle.subscribeData as Partial<WebhookSubscribeData> | undefined)?.id;
    if (subscriptionId === undefined) return {};
    const token = await tokenToUnsubscribe(z, bundle);
    if (token === undefined) return {};
    try {
      await (await v2Client(z, bundle, { token })).webhooks.delete(subscriptionId);
    } catch (error) {
      // Already gone: what turning the Zap off asks for is true.
      if (!(error instanceof NotFoundError)) throw error;
    }
    return {};
  });

  const perform = async (z: ZObject, bundle: Bundle) => {
    const { constructEvent, SIGNATURE_HEADER, WebhookSignatureError } = await loadShared();
    const { secret } = (bundle.subscribeData ?? {}) as Partial<WebhookSubscribeData>;
    const header = deliveryHeader(bundle, SIGNATURE_HEADER);
    const body = bundle.rawRequest?.content;
    if (secret === undefined || header === undefined || body === undefined) {
      throw new z.errors.Error('Rejected a delivery without a signature.', 'invalid_signature', 401);
    }
    let event: WebhookEvent;
    try {
      event = constructEvent(body, header, secret, { toleranceSeconds: SIGNATURE_TOLERANCE_SECONDS });
    } catch (error) {
      const reason = error instanceof WebhookSignatureError ? error.reason : 'invalid_payload';
      throw new z.errors.Error(
        `Rejected a delivery: ${error instanceof Error ? error.message : String(error)}`,
        reason,
        401,
      );
    }
    if (event.type !== options.event) return [];
    const output = options.output(event, bundle);
    if (output === undefined) return [];
    return complete(z, bundle, [output]);
  };

  return {
    key: options.key,
    noun: options.noun,
    display: { label: options.label, description: options.description },
    operation: {
      type: 'hook',
      inputFields: options.inputFields,
      performSubscribe,
      performUnsubscribe,
      perform,
      performList: withZapierErrors(async (z: ZObject, bundle: Bundle) => {
        return complete(z, bundle, await options.performList(z, bundle));
      }),
      sample: options.sample,
      outputFields: options.outputFields,
    },
  } as Trigger;
}
