export * from './client/index.ts';
export * from './schemas/index.ts';
export * from './scope-groups.ts';
export { DELIVERY_ID_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER } from './webhooks/headers.ts';
