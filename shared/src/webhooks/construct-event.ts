import { z } from 'zod';
import { WebhookEvent } from '../schemas/index.ts';
import {
  type SignatureFailureReason,
  type SignatureHeaderValue,
  type VerifySignatureOptions,
  verifySignature,
  type WebhookPayload,
  type WebhookSecrets,
} from './signature.ts';

/** The delivery is not authentic or not fresh: answer it with a 4xx and do not act on it. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
  readonly reason: SignatureFailureReason;

  constructor(reason: SignatureFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** The delivery is authentic but its body is not a webhook event (not UTF-8, not JSON, or off-schema). */
export class WebhookPayloadError extends Error {
  override name = 'WebhookPayloadError';
}

export type ConstructEventOptions = Pick<VerifySignatureOptions, 'toleranceSeconds' | 'now'>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a delivery like `verifySignature`, then parses its body as a `WebhookEvent`. Throws
 * `WebhookSignatureError` for a bad signature or timestamp, `WebhookPayloadError` for a bad body.
 */
export function constructEvent(
  payload: WebhookPayload,
  header: SignatureHeaderValue,
  secrets: WebhookSecrets,
  options: ConstructEventOptions = {},
): WebhookEvent {
  const verified = verifySignature({ payload, header, secrets, ...options });
  if (!verified.ok) throw new WebhookSignatureError(verified.reason, verified.message);

  let text: string;
  try {
    text = typeof payload === 'string' ? payload : utf8.decode(payload);
  } catch (error) {
    throw new WebhookPayloadError('The webhook body is not valid UTF-8.', { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${error.message}` : '';
    throw new WebhookPayloadError(`The webhook body is not valid JSON${detail}`, { cause: error });
  }
  const parsed = WebhookEvent.safeParse(json);
  if (!parsed.success) {
    throw new WebhookPayloadError(
      `The webhook body is not a valid event:\n${z.prettifyError(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}
