/**
 * The part of the package that loads neither zod nor ky: the clients' error classes, the fixed value lists the
 * schemas are built from, and a session token's expiry. For code that must start fast and loads the clients
 * and schemas only when it first needs them (the Zapier app: docs/zapier-app.md, "Load time").
 */
export * from './client/errors.ts';
export { TOKEN_LIFETIME_MS, TOKEN_REFRESH_MARGIN_MS, tokenExpiresAt } from './client/v1/token.ts';
export * from './schemas/values.ts';
