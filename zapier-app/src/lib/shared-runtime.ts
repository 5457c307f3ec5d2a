/**
 * What the app takes from the shared package at run time, loaded by `loadShared()` (lib/load.ts) when a step
 * first needs it: the clients and the schemas they parse with (and so zod and ky). Named one by one, so the
 * bundle keeps only these and what they use.
 */
export { LegacyClient, ThreadworkClient, V1Item } from '@threadwork/shared';
export { constructEvent, SIGNATURE_HEADER, WebhookSignatureError } from '@threadwork/shared/webhooks';
