import { createHmac, timingSafeEqual } from 'node:crypto';

import { SIGNATURE_HEADER } from './headers.ts';

export { DELIVERY_ID_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER } from './headers.ts';

/** The tolerance the reference handlers use (spec v2, section 6). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The raw request body exactly as received; a Buffer is a Uint8Array. */
export type WebhookPayload = string | Uint8Array;
export type WebhookSecrets = string | readonly string[];
/** A header as Node exposes it (`req.headers[name]`, `headersDistinct`, or absent). */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

export type SignatureFailureReason =
  | 'missing_header'
  | 'malformed_header'
  | 'no_signatures'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch';

export type ParsedSignatureHeader = {
  /** Unix seconds. */
  timestamp: number;
  /** Every `v1=` value, in header order. */
  signatures: string[];
};

export type SignPayloadOptions = {
  /** Unix seconds; defaults to now. */
  timestamp?: number;
};

export type VerifySignatureOptions = {
  payload: WebhookPayload;
  header: SignatureHeaderValue;
  secrets: WebhookSecrets;
  /** Allowed distance, in seconds, between the signed timestamp and now, in either direction. */
  toleranceSeconds?: number;
  /** Returns the current time in unix milliseconds. */
  now?: () => number;
};

export type VerifySignatureResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: SignatureFailureReason; message: string };

const SIGNATURE_SCHEME = 'v1';
const HEADER_FORMAT = 't=<unix seconds>,v1=<hex>[,v1=<hex>…] with no spaces';
// No leading zeros: the signed string carries the timestamp's text, so one number must have one spelling.
const TIMESTAMP_PATTERN = /^(?:0|[1-9][0-9]*)$/;
const ENTRY_PATTERN = /^([A-Za-z0-9_-]+)=([^=]+)$/;
const SHA256_HEX_PATTERN = /^[0-9a-fA-F]{64}$/;

/**
 * Splits a signature header into its timestamp and `v1` signatures. Entries of other schemes (`v0=`…)
 * are skipped. Returns null when the header does not follow the format: whitespace anywhere, an empty
 * or `=`-less entry, no `t`, more than one `t`, or a `t` that is not a plain unsigned integer.
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  if (header === '' || /\s/.test(header)) return null;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const entry of header.split(',')) {
    const match = ENTRY_PATTERN.exec(entry);
    if (!match) return null;
    const key = match[1]!;
    const value = match[2]!;
    if (key === 't') {
      if (timestamp !== undefined || !TIMESTAMP_PATTERN.test(value)) return null;
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) return null;
    } else if (key === SIGNATURE_SCHEME) {
      signatures.push(value);
    }
  }
  if (timestamp === undefined) return null;
  return { timestamp, signatures };
}

/**
 * Returns the `x-service-signature` value for `payload`: `t=<timestamp>` followed by one `v1=` entry per
 * secret, in the order given (several secrets while a rotated-out secret is still active).
 */
export function signPayload(
  payload: WebhookPayload,
  secrets: WebhookSecrets,
  options: SignPayloadOptions = {},
): string {
  assertPayload(payload, 'signPayload');
  const secretList = normalizeSecrets(secrets, 'signPayload');
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(
      `signPayload: timestamp must be a non-negative integer number of unix seconds, got ${timestamp}`,
    );
  }
  const entries = secretList.map(
    (secret) => `${SIGNATURE_SCHEME}=${computeSignature(payload, timestamp, secret).toString('hex')}`,
  );
  return [`t=${timestamp}`, ...entries].join(',');
}

/**
 * Checks a delivery's signature header against the raw body. Passes when any `v1` entry matches any of
 * the secrets and the signed timestamp is within `toleranceSeconds` (default 300) of now, in whole
 * seconds. Bad arguments (no secrets, a non-positive tolerance, a parsed body) throw; a bad delivery
 * returns `{ ok: false, reason, message }`.
 */
export function verifySignature(options: VerifySignatureOptions): VerifySignatureResult {
  const { payload, header, secrets, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now } = options;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds <= 0) {
    throw new RangeError(
      `verifySignature: toleranceSeconds must be a positive finite number, got ${String(toleranceSeconds)}`,
    );
  }
  assertPayload(payload, 'verifySignature');
  const secretList = normalizeSecrets(secrets, 'verifySignature');

  const headerText = singleHeaderValue(header);
  if (typeof headerText !== 'string') return headerText;
  if (headerText === '') {
    return failure('malformed_header', `The ${SIGNATURE_HEADER} header is empty; expected ${HEADER_FORMAT}.`);
  }
  const parsed = parseSignatureHeader(headerText);
  if (!parsed) {
    return failure(
      'malformed_header',
      `The ${SIGNATURE_HEADER} header is malformed; expected ${HEADER_FORMAT}.`,
    );
  }
  if (parsed.signatures.length === 0) {
    return failure(
      'no_signatures',
      `The ${SIGNATURE_HEADER} header carries no ${SIGNATURE_SCHEME}= signature.`,
    );
  }

  if (!anySignatureMatches(payload, parsed, secretList)) {
    return failure(
      'signature_mismatch',
      `No ${SIGNATURE_SCHEME} signature in the ${SIGNATURE_HEADER} header matches the payload for the given ` +
        'secret(s). Verify against the raw request body, byte for byte, and check the signing secret.',
    );
  }

  // Checked after the signature so that only an authentic timestamp is reported on.
  const nowMs = now();
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    throw new TypeError(`verifySignature: now() must return unix milliseconds, got ${String(nowMs)}`);
  }
  const ageSeconds = Math.floor(nowMs / 1000) - parsed.timestamp;
  if (ageSeconds > toleranceSeconds) {
    return failure(
      'timestamp_too_old',
      `The signature timestamp is ${ageSeconds} s old, beyond the tolerance of ${toleranceSeconds} s.`,
    );
  }
  if (-ageSeconds > toleranceSeconds) {
    return failure(
      'timestamp_in_future',
      `The signature timestamp is ${-ageSeconds} s in the future, beyond the tolerance of ${toleranceSeconds} s.`,
    );
  }
  return { ok: true, timestamp: parsed.timestamp };
}

function computeSignature(payload: WebhookPayload, timestamp: number, secret: string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
}

function anySignatureMatches(
  payload: WebhookPayload,
  parsed: ParsedSignatureHeader,
  secrets: readonly string[],
): boolean {
  // A value that is not 64 hex digits can never match; it is dropped without looking at its content.
  const candidates = parsed.signatures
    .filter((signature) => SHA256_HEX_PATTERN.test(signature))
    .map((signature) => Buffer.from(signature, 'hex'));
  let matched = false;
  // Every pair is compared, in constant time, whatever matched before.
  for (const secret of secrets) {
    const expected = computeSignature(payload, parsed.timestamp, secret);
    for (const candidate of candidates) {
      if (timingSafeEqual(expected, candidate)) matched = true;
    }
  }
  return matched;
}

function singleHeaderValue(header: SignatureHeaderValue): string | VerifySignatureResult {
  if (header === null || header === undefined) {
    return failure('missing_header', `The ${SIGNATURE_HEADER} header is missing.`);
  }
  if (typeof header === 'string') return header;
  if (header.length === 0) return failure('missing_header', `The ${SIGNATURE_HEADER} header is missing.`);
  if (header.length > 1) {
    return failure(
      'malformed_header',
      `Expected one ${SIGNATURE_HEADER} header, got ${header.length}; all signatures belong in one header.`,
    );
  }
  return header[0]!;
}

function failure(reason: SignatureFailureReason, message: string): VerifySignatureResult {
  return { ok: false, reason, message };
}

function normalizeSecrets(secrets: WebhookSecrets, caller: string): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`${caller}: at least one webhook secret is required`);
  }
  // An empty key would let anyone produce a valid signature.
  if (list.some((secret) => typeof secret !== 'string' || secret === '')) {
    throw new TypeError(`${caller}: every webhook secret must be a non-empty string`);
  }
  return list;
}

function assertPayload(payload: unknown, caller: string): asserts payload is WebhookPayload {
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    throw new TypeError(
      `${caller}: payload must be the raw request body as a string or Buffer, not ${describe(payload)}; ` +
        'a parsed body cannot be verified',
    );
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
