import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SeedInput } from '@threadwork/reference-server';
import { e2eSeed } from './seed.ts';

/** The workspace root: the server is started from there, as its contract says. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** pnpm, then the server: both are compiled on a cold start, on a shared machine. */
const READY_TIMEOUT_MS = 25_000;
const STOP_TIMEOUT_MS = 10_000;

export interface LiveServer {
  /** e.g. `http://127.0.0.1:41679`, from the `ready` line. */
  readonly origin: string;
  /** `{origin}/v2`, the ThreadworkClient's baseUrl. */
  readonly v2BaseUrl: string;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /**
   * Sends SIGTERM to the process started (`pnpm run server …`) and resolves with its exit code. Rejects
   * when it does not exit in time or when a process of its group outlives it.
   */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  seed?: SeedInput | undefined;
  /** Adds `--test-control` (the `/_control` endpoints, e.g. an inbound message). */
  testControl?: boolean | undefined;
  /** Adds `--console` (the service's web app at the origin). */
  console?: boolean | undefined;
}

function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the reference server exactly by its contract: `pnpm run server --port 0 --db :memory: --seed FILE
 * --allow-insecure-webhooks --webhook-time-scale 0.001` from the repo root, resolved on the stdout line
 * starting `ready `. The process gets its own process group, so nothing it starts can be left behind.
 */
export async function startLiveServer(options: StartOptions = {}): Promise<LiveServer> {
  const work = await mkdtemp(join(tmpdir(), 'threadwork-e2e-'));
  const seedFile = join(work, 'seed.json');
  await writeFile(seedFile, JSON.stringify(options.seed ?? e2eSeed));

  const args = [
    'run',
    'server',
    '--port',
    '0',
    '--db',
    ':memory:',
    '--seed',
    seedFile,
    '--allow-insecure-webhooks',
    '--webhook-time-scale',
    '0.001',
    ...(options.testControl ? ['--test-control'] : []),
    ...(options.console ? ['--console'] : []),
  ];
  const child = spawn('pnpm', args, {
    cwd: REPO_ROOT,
    // The node running the tests runs the server too (the system node may be older).
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(error));
  });

  const killGroup = () => {
    if (pid !== undefined && processGroupAlive(pid)) process.kill(-pid, 'SIGKILL');
  };
  const cleanUp = () => rm(work, { recursive: true, force: true });

  try {
    const origin = await Promise.race([
      waitForReady(child, () => stdout),
      exited.then(({ code, signal }) => {
        throw new Error(`the server exited (${code ?? signal}) before ready; stderr:\n${stderr}`);
      }),
      spawnFailed,
      timeout(
        READY_TIMEOUT_MS,
        () => `the server was not ready within ${READY_TIMEOUT_MS} ms; stderr:\n${stderr}`,
      ),
    ]);
    return {
      origin,
      v2BaseUrl: `${origin}/v2`,
      stderr: () => stderr,
      stop: async () => {
        try {
          child.kill('SIGTERM');
          const { code, signal } = await Promise.race([
            exited,
            timeout(STOP_TIMEOUT_MS, () => `the server did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM`),
          ]);
          if (pid !== undefined && processGroupAlive(pid)) {
            throw new Error(
              `pnpm exited (${code ?? signal}) but a process it started is still running after SIGTERM`,
            );
          }
          return code;
        } finally {
          killGroup();
          await cleanUp();
        }
      },
    };
  } catch (error) {
    killGroup();
    await cleanUp();
    throw error;
  }
}

function waitForReady(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolveReady) => {
    const check = () => {
      // Only complete lines count (the last piece may be half a line), so the origin is never cut short.
      const line = output()
        .split('\n')
        .slice(0, -1)
        .find((candidate) => candidate.startsWith('ready '));
      if (line === undefined) return;
      child.stdout?.off('data', check);
      resolveReady(line.slice('ready '.length).trim());
    };
    child.stdout?.on('data', check);
    check();
  });
}

function timeout(milliseconds: number, message: () => string): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(message())), milliseconds).unref();
  });
}
