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
