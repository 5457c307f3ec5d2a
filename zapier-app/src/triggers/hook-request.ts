/**
 * Reading a hook delivery as Zapier hands it to `perform`: `rawRequest.headers` carries Zapier's names
 * (`Http-X-Service-Event-Id` for the sender's `x-service-event-id`), `rawRequest.content` the raw body.
 */
import type { Bundle } from 'zapier-platform-core';

/** A header of the delivery, by the sender's name, whatever form Zapier gives it in. */
export function deliveryHeader(bundle: Bundle, name: string): string | undefined {
  const wanted = new Set([name.toLowerCase(), `http-${name.toLowerCase()}`]);
  for (const headers of [bundle.rawRequest?.headers, bundle.cleanedRequest?.headers]) {
    if (typeof headers !== 'object' || headers === null) continue;
    for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
      if (!wanted.has(key.toLowerCase().replace(/_/g, '-'))) continue;
      if (typeof value === 'string') return value;
      if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    }
  }
  return undefined;
}
