import { type HostResolver, systemResolver } from './domain/webhook-targets.ts';
import type { SeedInput } from './seed/seed-schema.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export interface ServerOptions {
  /** Listen port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Listen address. Default 127.0.0.1. */
  host?: string;
  /** SQLite file or `:memory:`. Default `.data/threadwork.db`. */
  db?: string;
  /** A seed object or the path of a seed file, loaded into an empty database (an error otherwise). */
  seed?: SeedInput | string | undefined;
  /** Load the bundled demo workspace when the database is empty. */
  demo?: boolean;
  /**
   * Accept webhook targets on loopback (127.0.0.0/8, localhost, [::1]), over http too, except this
   * server's own port. See docs/webhooks.md.
   */
  allowInsecureWebhooks?: boolean;
  /** Resolves webhook target host names (checked at creation and on every delivery). Default: the system's. */
  resolveHost?: HostResolver;
  /** Multiplies every webhook retry delay (tests use 0.001). Default 1. */
  webhookTimeScale?: number;
  /** Enable the `/_control` endpoints. */
  testControl?: boolean;
  /** Serve the console (the service's web app) at `/`, to loopback clients only. See docs/console.md. */
  console?: boolean;
  /** The email of the user the console acts as. Default: the first user of the seed or demo. */
  consoleUser?: string | undefined;
  /** `postgres://…` selects PostgreSQL instead of `db`. */
  databaseUrl?: string | undefined;
  /**
   * With `db: ':memory:'`: a file caching an empty, migrated database, read instead of running every
   * migration at start-up and written when missing (the start command keeps one per build of its bundle).
   */
  memoryTemplate?: string | undefined;
  /** The clock every timestamp, token expiry and key expiry is read from. */
  now?: () => Date;
  /** Log level of the request log on stderr, or false for none. Default false. */
  logger?: LogLevel | false;
}

export type ResolvedServerOptions = Required<
  Omit<ServerOptions, 'seed' | 'databaseUrl' | 'consoleUser' | 'memoryTemplate'>
> &
  Pick<ServerOptions, 'seed' | 'databaseUrl' | 'consoleUser' | 'memoryTemplate'>;

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DB_PATH = '.data/threadwork.db';

export function resolveOptions(options: ServerOptions): ResolvedServerOptions {
  return {
    port: options.port ?? DEFAULT_PORT,
    host: options.host ?? DEFAULT_HOST,
    db: options.db ?? DEFAULT_DB_PATH,
    seed: options.seed,
    demo: options.demo ?? false,
    allowInsecureWebhooks: options.allowInsecureWebhooks ?? false,
    resolveHost: options.resolveHost ?? systemResolver,
    webhookTimeScale: options.webhookTimeScale ?? 1,
    testControl: options.testControl ?? false,
    console: options.console ?? false,
    consoleUser: options.consoleUser,
    databaseUrl: options.databaseUrl,
    memoryTemplate: options.memoryTemplate,
    now: options.now ?? (() => new Date()),
    logger: options.logger ?? false,
  };
}
