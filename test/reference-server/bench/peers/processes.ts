/** Starting and stopping the servers a benchmark compares, each in its own process. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunningServer {
  origin: string;
  /** Milliseconds from spawn to ready. */
  startupMs: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Spawns a command and resolves once it is ready: when a line of its output matches `ready` (the origin is
 * taken from the match's first group), or, for servers that print nothing when ready, when `probe` (a path on
 * the given origin) answers over HTTP. Output is kept for the error message if the process dies first.
 */
export function startProcess(
  command: string,
  args: string[],
  options: {
    cwd?: string;
    ready?: RegExp;
    origin?: string;
    probe?: string;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
  },
): Promise<RunningServer> {
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} was not ready in time:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    let settled = false;
    const ready = (origin: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({ origin, startupMs: performance.now() - started, stop: () => stopProcess(child) });
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = options.ready?.exec(output);
      if (match) ready(options.origin ?? match[1] ?? '');
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    if (options.probe !== undefined && options.origin !== undefined) {
      const { origin, probe } = options;
      const poll = () => {
        if (settled || child.exitCode !== null) return;
        fetch(origin + probe).then(
          () => ready(origin),
          () => setTimeout(poll, 50),
        );
      };
      poll();
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
