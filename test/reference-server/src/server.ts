import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type ConsoleUser, resolveConsoleUser } from './console/user.ts';
import { openDatabase } from './db/database.ts';
import { groupCommit } from './db/transaction.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { subscriptionsChanged } from './domain/events/listeners.ts';
import { forgetPrincipals } from './domain/principal-cache.ts';
import type { WebhookTargetPolicy } from './domain/webhook-targets.ts';
import { loadSessionTokens } from './http/session-tokens.ts';
import { resolveOptions, type ServerOptions } from './options.ts';
import { isDatabaseEmpty, loadSeed } from './seed/load-seed.ts';

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8787` */
  origin: string;
  /** With `console`: the user the console acts as. */
  console?: ConsoleUser;
  app: FastifyInstance;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

export async function startServer(input: ServerOptions = {}): Promise<RunningServer> {
  const options = resolveOptions(input);
  const handle = await openDatabase({
    path: options.db,
    databaseUrl: options.databaseUrl,
    memoryTemplate: options.memoryTemplate,
  });
  // A batch that failed to commit may have taught the caches things that were then rolled back.
  groupCommit(handle.db)?.onFailure(() => {
    forgetPrincipals(handle.db);
    subscriptionsChanged(handle.db);
  });
  let app: FastifyInstance | undefined;
  let consoleUser: ConsoleUser | undefined;
  // The ports are known once the server listens (`--port 0` picks one); no target is checked before.
  const listeningPorts = new Set<number>();
  const targets: WebhookTargetPolicy = {
    allowInsecureWebhooks: options.allowInsecureWebhooks,
    resolveHost: options.resolveHost,
    listeningPorts,
  };
  const outbox = createDeliveryWorker({
    db: handle.db,
    now: options.now,
    timeScale: options.webhookTimeScale,
    targets,
  });
  try {
    let seededUserId: string | null = null;
    if (options.seed !== undefined) {
      seededUserId = (await loadSeed(handle.db, options.seed, options.now())).firstUserId;
    } else if (options.demo && (await isDatabaseEmpty(handle.db))) {
      const { demoSeed } = await import('./seed/demo.ts');
      seededUserId = (await loadSeed(handle.db, demoSeed, options.now())).firstUserId;
    }
    if (options.console) consoleUser = await resolveConsoleUser(handle.db, options, seededUserId);
    const tokens = await loadSessionTokens(handle.db, options.now);
    app = await buildApp({ db: handle.db, options, now: options.now, tokens, outbox, targets, consoleUser });
    await app.listen({ port: options.port, host: options.host });
    for (const address of app.addresses()) {
      if (typeof address !== 'string') listeningPorts.add(address.port);
    }
    await outbox.start();
  } catch (error) {
    await app?.close();
    await outbox.stop();
    await handle.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const running = app;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${host}:${port}`,
    ...(consoleUser ? { console: consoleUser } : {}),
    app: running,
    close: () => {
      closing ??= running
        .close()
        .then(() => outbox.stop())
        .then(() => handle.close());
      return closing;
    },
  };
}
