/**
 * The part of the package that loads neither zod nor ky: the clients' error classes, the fixed value lists
 * the schemas are built from, the service's length limits, a session token's lifecycle and the delivery
 * header names. For code that must start fast and loads the clients and schemas only when it first needs them
 * (the Zapier app: docs/zapier-app.md, "Load time"; the extension's panel).
 */
export * from './client/errors.ts';
export { withoutUrlSecrets } from './client/redact.ts';
export * from './client/v1/token.ts';
export * from './schemas/limits.ts';
export * from './schemas/values.ts';
export * from './scope-groups.ts';
export * from './webhooks/headers.ts';
