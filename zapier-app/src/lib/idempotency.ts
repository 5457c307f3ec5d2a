/**
 * Idempotency keys for the app's writes (docs/zapier-actions.md, "Idempotency"). A key names one logical
 * operation, never "these inputs":
 *
 * - Without "Only Once Per" (`dedupe_key`), each run of a step draws one random key. The client's own
 *   retries within that run (no answer, a 5xx, 409 `idempotency_in_progress`) resend it, so a lost answer
 *   never makes the step act twice; a second run (complete → un-complete → complete again, the same reply
 *   to two new messages) draws a new key and acts again.
 * - With it, the key is derived from the operation and that value, so a replayed Zap run (same trigger
 *   item mapped in) answers what the first run did instead of acting again, for the service's 24 hours.
 *   Each key is one attempt: when the service answers a replayed failure, or the key was already spent on
 *   other inputs, the step moves on to the next attempt's key (`onceKey(…, attempt)`), so a failed step
 *   retried runs anew instead of replaying its failure.
 */
import { createHash, randomUUID } from 'node:crypto';

/** The optional input every action gets (the factory in creates/define.ts adds it). */
export const DEDUPE_KEY = 'dedupe_key';

/** How many attempts one "Only Once Per" value may take (each failed attempt spends one key). */
export const MAX_ONCE_ATTEMPTS = 6;

/** A fresh key for one run of a step; `variant` tells apart the separate writes of that run. */
export function runKey(operationKey: string, run: string = randomUUID(), variant?: string): string {
  return `zapier-${operationKey}-run-${run}${variant === undefined ? '' : `-${variant}`}`;
}

/** The key of attempt `attempt` (0 first) of `operationKey` for the "Only Once Per" value `value`. */
export function onceKey(operationKey: string, value: string, attempt = 0, variant?: string): string {
  const digest = createHash('sha256')
    .update(stableJson({ operation: operationKey, once: value, attempt, variant }))
    .digest('hex');
  return `zapier-${operationKey}-once-${digest.slice(0, 40)}`;
}

/** JSON with object keys in sorted order, so equal values always give the same text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const entry = (value as Record<string, unknown>)[key];
    if (entry !== undefined) sorted[key] = sortKeys(entry);
  }
  return sorted;
}

/**
 * Whether `error` (a client error) means this attempt's key is spent and the next attempt should run:
 * a failure the service replayed from an earlier run (`idempotent-replayed`), or the key already used
 * with other inputs (`idempotency_conflict`).
 */
export function spentKey(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code, headers } = error as { status?: unknown; code?: unknown; headers?: unknown };
  if (code === 'idempotency_conflict') return true;
  const replayed =
    typeof headers === 'object' &&
    headers !== null &&
    (headers as Record<string, unknown>)['idempotent-replayed'] === 'true';
  return replayed && typeof status === 'number' && status >= 400 && status < 500;
}
