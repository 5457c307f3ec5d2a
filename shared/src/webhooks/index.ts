export {
  type ConstructEventOptions,
  constructEvent,
  WebhookPayloadError,
  WebhookSignatureError,
} from './construct-event.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  type ParsedSignatureHeader,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type SignatureFailureReason,
  type SignatureHeaderValue,
  type SignPayloadOptions,
  signPayload,
  type VerifySignatureOptions,
  type VerifySignatureResult,
  verifySignature,
  type WebhookPayload,
  type WebhookSecrets,
} from './signature.ts';
