// `pnpm run server [flags]`: prints `ready <origin>` on stdout once listening; logs go to stderr.
import module from 'node:module';
import { parseArgs } from 'node:util';
import { DEFAULT_DB_PATH, DEFAULT_HOST, DEFAULT_PORT, type LogLevel, type ServerOptions } from './options.ts';

const USAGE = `usage: pnpm run server [flags]
  --port N                    listen port; 0 picks a free one (default ${DEFAULT_PORT})
  --host H                    listen address (default ${DEFAULT_HOST})
  --db PATH                   SQLite file, or :memory: (default ${DEFAULT_DB_PATH}); ignored when
                              DATABASE_URL is set
  --seed FILE                 load a seed file into an empty database
  --demo                      load the demo workspace when the database is empty
  --allow-insecure-webhooks   accept webhook targets on loopback (http:// too); private ranges, and this
                              server's own port, stay refused
  --webhook-time-scale F      multiply every webhook retry delay by F (default 1)
  --test-control              enable the /_control endpoints
  --console                   serve the console (the service's web app) at the origin, to loopback
                              clients only
  --console-user EMAIL        the user the console acts as (default: the first user of the seed or demo)
environment:
  DATABASE_URL=postgres://user:password@host:port/database
                              run on PostgreSQL instead of SQLite; several server processes may share
                              one database (seed it from one of them)
  LOG_LEVEL=info              log requests to stderr (fatal, error, warn, info, debug, trace)`;

class UsageError extends Error {}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

function parseFlags(argv: string[]): ServerOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: ServerOptions = {
    host: values.host ?? DEFAULT_HOST,
    db: values.db ?? DEFAULT_DB_PATH,
    demo: values.demo ?? false,
    allowInsecureWebhooks: values['allow-insecure-webhooks'] ?? false,
    testControl: values['test-control'] ?? false,
    console: values.console ?? false,
    seed: values.seed,
  };
  if (values['console-user'] !== undefined) {
    if (!values.console) throw new UsageError('--console-user needs --console');
    if (!/^[^@\s]+@[^@\s]+$/.test(values['console-user'])) {
      throw new UsageError(`--console-user must be an email address, got "${values['console-user']}"`);
    }
    options.consoleUser = values['console-user'];
  }
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
    }
    options.port = port;
  } else {
    options.port = DEFAULT_PORT;
  }
  if (values['webhook-time-scale'] !== undefined) {
    const scale = Number(values['webhook-time-scale']);
    if (values['webhook-time-scale'].trim() === '' || !Number.isFinite(scale) || scale < 0) {
      throw new UsageError(
        `--webhook-time-scale must be a number >= 0, got "${values['webhook-time-scale']}"`,
      );
    }
    options.webhookTimeScale = scale;
  }
  if (values.host === '') throw new UsageError('--host must not be empty');
  if (values.db === '') throw new UsageError('--db must not be empty');
  return options;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      seed: { type: 'string' },
      demo: { type: 'boolean' },
      'allow-insecure-webhooks': { type: 'boolean' },
      'webhook-time-scale': { type: 'string' },
      'test-control': { type: 'boolean' },
      console: { type: 'boolean' },
      'console-user': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function logLevelFromEnv(): LogLevel | false {
  const level = process.env['LOG_LEVEL'];
  return level && (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : false;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let options: ServerOptions;
  try {
    options = parseFlags(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`threadwork server: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const databaseUrl = process.env['DATABASE_URL'];
  if (databaseUrl) options.databaseUrl = databaseUrl;
  // Set by the start command (bin/server.mjs): where it keeps the migrated empty database of this build.
  const memoryTemplate = process.env['THREADWORK_MEMORY_TEMPLATE'];
  if (memoryTemplate) options.memoryTemplate = memoryTemplate;
  options.logger = logLevelFromEnv();

  // Startup is dominated by compiling modules; the cache makes every start after the first faster.
  module.enableCompileCache?.();
  const { startServer } = await import('./server.ts');

  // Handlers go in before the ready line: a caller may signal as soon as it reads it.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopRequested = false;
  const stop = async () => {
    if (stopRequested) return;
    stopRequested = true;
    if (!server) return; // still starting: stopped once it is up
    try {
      await server.close();
      process.exit(0);
    } catch (error) {
      process.stderr.write(`threadwork server: shutdown failed: ${(error as Error).message}\n`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  try {
    server = await startServer(options);
  } catch (error) {
    process.stderr.write(`threadwork server: ${(error as Error).message}\n`);
    process.exit(1);
  }
  if (stopRequested) {
    stopRequested = false;
    await stop();
    return;
  }
  process.stdout.write(`ready ${server.origin}\n`);
  if (server.console) {
    // The console answers loopback clients only: its URL is loopback's, whatever --host says.
    const { loopbackOrigin } = await import('./console/addresses.ts');
    const origin = loopbackOrigin(server.app);
    process.stderr.write(
      origin === null
        ? `console: not reachable: it answers clients on this machine only, and the server listens on ${server.origin} only (start it with --host 127.0.0.1 or 0.0.0.0)\n`
        : `console: ${origin}/ (open it in a browser; it acts as ${server.console.email})\n`,
    );
  }
  if (options.demo) {
    const { demoCredentials } = await import('./seed/demo.ts');
    process.stderr.write(`${demoCredentials(server.origin)}\n`);
  }
}

// No top-level await: the start command runs this file bundled as CommonJS (see bin/server.mjs).
main().catch((error: unknown) => {
  process.stderr.write(`threadwork server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
