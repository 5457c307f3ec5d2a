/**
 * Idempotency keys for creates. Zapier gives no run id, so the key is derived from what the step sends: a
 * replayed step (same operation, same inputs) sends the same key and the service repeats its first answer
 * instead of creating a second object. The service remembers keys for 24 hours.
 */
import { createHash } from 'node:crypto';

/** A stable hash of the operation key and its inputs (object keys sorted, undefined values left out). */
export function idempotencyKey(operationKey: string, inputs: Record<string, unknown>): string {
  const digest = createHash('sha256')
    .update(stableJson({ operation: operationKey, inputs }))
    .digest('hex');
  return `zapier-${operationKey}-${digest.slice(0, 40)}`;
}

/** JSON with object keys in sorted order, so equal inputs always give the same text. */
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
