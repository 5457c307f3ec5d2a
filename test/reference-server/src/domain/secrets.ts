import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Secrets are stored only as their sha256 (hex). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Constant-time comparison of two strings of any length (compares their digests). */
export function secretsEqual(a: string, b: string): boolean {
  return digestsEqual(hashSecret(a), hashSecret(b));
}

/** A new random secret with a readable prefix, e.g. `tw_live_…`. */
export function newSecret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random string of `length` characters of [0-9A-Za-z], each uniform (rejection sampling: no modulo
 * bias). The v1 API documents a legacy key's halves as alphanumeric strings.
 */
export function newAlphanumericSecret(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes at or above it would favour the first characters.
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}
