import type { Kysely } from 'kysely';
import type { ConsoleUser } from '../console/user.ts';
import type { Database } from '../db/schema.ts';
import type { Outbox } from '../domain/transaction.ts';
import type { WebhookTargetPolicy } from '../domain/webhook-targets.ts';
import type { ResolvedServerOptions } from '../options.ts';
import type { SessionTokens } from './session-tokens.ts';

/** What every route plugin reaches through `app.ctx`. */
export interface AppContext {
  db: Kysely<Database>;
  options: ResolvedServerOptions;
  /** The injectable clock: read the time only through this. */
  now: () => Date;
  tokens: SessionTokens;
  /** The delivery worker, woken after a commit that recorded events (see runInTransaction). */
  outbox: Outbox;
  /** Where a webhook may be sent: the flag, the resolver and this server's own ports (webhook-targets.ts). */
  targets: WebhookTargetPolicy;
  /** With `--console`: the user the console acts as. */
  consoleUser?: ConsoleUser | undefined;
}
