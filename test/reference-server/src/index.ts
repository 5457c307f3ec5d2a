export { BODY_LIMIT_BYTES } from './app.ts';
export type { HostResolver } from './domain/webhook-targets.ts';
export { IDEMPOTENCY_TTL_MS } from './http/idempotency.ts';
export { SESSION_TOKEN_TTL_SECONDS } from './http/session-tokens.ts';
export type { LogLevel, ServerOptions } from './options.ts';
export { DEMO_CREDENTIALS, demoSeed } from './seed/demo.ts';
export type { SeedData, SeedInput } from './seed/seed-schema.ts';
export { parseSeed, SeedError } from './seed/seed-schema.ts';
export { type RunningServer, startServer } from './server.ts';
