/**
 * The delivery headers, in a module of their own (no `node:crypto`) so browser code and the main entry can
 * name them without loading the signing code.
 */
export const SIGNATURE_HEADER = 'x-service-signature';
/** Unique per event: a v2 delivery and a v1 hook both carry it, so a receiver can drop repeats. */
export const EVENT_ID_HEADER = 'x-service-event-id';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
