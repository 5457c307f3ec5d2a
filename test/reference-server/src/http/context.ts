import type { ConsoleUser } from '../console/user.ts';
import type { DomainContext } from '../domain/transaction.ts';
import type { WebhookTargetPolicy } from '../domain/webhook-targets.ts';
import type { SessionTokens } from './session-tokens.ts';

/**
 * What every route plugin reaches through `app.ctx`, and a request's handler as `ctx` (with the
 * request's deferred commit: request-state.ts `contextOf`).
 */
export interface AppContext extends DomainContext {
  tokens: SessionTokens;
  /** Where a webhook may be sent: the flag, the resolver and this server's own ports (webhook-targets.ts). */
  targets: WebhookTargetPolicy;
  /** With `--console`: the user the console acts as. */
  consoleUser?: ConsoleUser | undefined;
}
