import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ThreadworkClient, ThreadworkError } from '@threadwork/shared';
import { type HostResolver, type RunningServer, type ServerOptions, startServer } from '../../src/index.ts';
import { freshDatabase, spawnDatabaseEnv } from './database.ts';
import { fixtureSeed, SECRETS } from './fixtures.ts';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestServer {
  origin: string;
  close(): Promise<void>;
  /** fetch under /v2 with a bearer key (default: ada's full key); `init.token` sends x-access-token instead. */
  v2(path: string, init?: RequestOptions): Promise<Response>;
  /** fetch under /api/v1 with a session token. */
  v1(path: string, init?: RequestOptions & { token: string }): Promise<Response>;
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  /** Sent as JSON (content-type set) unless it is already a string. */
  body?: unknown;
  /** The bearer secret; null sends no Authorization header. */
  key?: string | null;
  /** A v1 session token, sent as x-access-token. */
  token?: string;
}

function request(origin: string, root: string, path: string, init: RequestOptions = {}): Promise<Response> {
  const { body, key, token, headers: given, ...rest } = init;
  const headers = new Headers(given);
  if (token) headers.set('x-access-token', token);
  else if (key !== null) headers.set('authorization', `Bearer ${key ?? SECRETS.adaFull}`);
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return fetch(`${origin}${root}${path}`, { ...rest, headers, body: payload });
}

/**
 * The resolver in-process test servers use for webhook target names: `localhost` is 127.0.0.1 and no
 * other name exists, so no test's webhook ever leaves the machine, not even as a DNS query.
 */
export const offlineResolver: HostResolver = async (hostname) => {
  if (hostname.toLowerCase().replace(/\.$/, '') === 'localhost') return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/**
 * An in-process server on a free port with a fresh database (in memory on SQLite; see database.ts) and
 * the fixture seed by default.
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  return (await startRunningTestServer(options)).server;
}

/** `startTestServer`, with the running server itself too (its database: `running.app.ctx.db`). */
export async function startRunningTestServer(
  options: ServerOptions = {},
): Promise<{ running: RunningServer; server: TestServer }> {
  const running = await startServer({
    port: 0,
    ...(await freshDatabase(options.db)),
    seed: fixtureSeed,
    resolveHost: offlineResolver,
    ...options,
  });
  return { running, server: clientOf(running.origin, () => running.close()) };
}

/** The TestServer face of a server at `origin` (one started elsewhere, e.g. by spawnServer). */
export function clientOf(origin: string, close: () => Promise<void>): TestServer {
  return {
    origin,
    close,
    v2: (path, init) => request(origin, '/v2', path, init),
    v1: (path, init) => request(origin, '/api/v1', path, { key: null, ...init }),
  };
}

/**
 * How long a spawned server may take to print `ready`: about a second on a quiet machine, but the
 * whole suite on PostgreSQL (migrations per database, several processes per test) on two busy cores
 * has taken over ten.
 */
const READY_WITHIN_MS = 20_000;

export interface SpawnedServer {
  origin: string;
  process: ChildProcess;
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Runs the real CLI (`node src/cli.ts`) and resolves on its `ready ` line. On PostgreSQL, `--db PATH`
 * picks the database (see database.ts) unless `env` names one itself.
 */
export async function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> {
  const databaseEnv = 'DATABASE_URL' in env ? {} : await spawnDatabaseEnv(args);
  const child = spawn(process.execPath, ['src/cli.ts', ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...databaseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  return new Promise((resolveReady, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server not ready within ${READY_WITHIN_MS / 1000} s; stderr:\n${stderr}`));
    }, READY_WITHIN_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('ready '));
      if (!line) return;
      clearTimeout(timer);
      resolveReady({
        origin: line.slice('ready '.length).trim(),
        process: child,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        Object.assign(new Error(`server exited with ${code} before ready; stderr:\n${stderr}`), {
          code,
          stderr,
        }),
      );
    });
  });
}

/** Runs the CLI to completion (for flags that make it exit) and returns its exit code and stderr. */
export async function runCli(
  args: string[],
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const databaseEnv = await spawnDatabaseEnv(args);
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['src/cli.ts', ...args], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, ...databaseEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stderr, stdout });
    });
  });
}

/** A response body as tests read it: asserted field by field, so it is left untyped. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions check the shape themselves
export type ResponseBody = any;

export function readBody(response: Response): Promise<ResponseBody> {
  return response.json() as Promise<ResponseBody>;
}

/** A response as tests read it: status, headers and the parsed body. */
export interface Answer {
  status: number;
  headers: Headers;
  body: ResponseBody;
}

export async function readAnswer(response: Response): Promise<Answer> {
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

/** POST /_control/inbound-message (a server started with testControl): a message arrives in a mailbox. */
export async function inboundMessage(server: { origin: string }, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.origin}/_control/inbound-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return readAnswer(response);
}

/** The error a typed-client call fails with; fails when the call succeeds instead. */
export async function failure(promise: Promise<unknown>): Promise<ThreadworkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ThreadworkError) return error;
    throw error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The typed v2 client on a test server (default: ada's full key), without retries. */
export function typedClient(
  server: { origin: string },
  auth: { apiKey: string } | { accessToken: string } = { apiKey: SECRETS.adaFull },
): ThreadworkClient {
  return new ThreadworkClient({ baseUrl: `${server.origin}/v2`, maxRetries: 0, ...auth });
}

/** The console page's token, as the page the server serves carries it. */
export async function consoleToken(server: { origin: string }): Promise<string> {
  const page = await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
  const token = /<meta name="console-token" content="([^"]+)">/.exec(await page.text())?.[1];
  if (!token) throw new Error('the console page carries no token');
  return token;
}

/** A request to the console's API as its page makes one (with the page's token). */
export async function consoleApi(
  server: { origin: string },
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  return fetch(`${server.origin}/_console/api/${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      'x-console-token': await consoleToken(server),
      ...init.headers,
    },
  });
}
