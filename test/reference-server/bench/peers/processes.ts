/** Starting and stopping the servers a benchmark compares, each in its own process. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface RunningServer {
  origin: string;
  /** The process id (to read its CPU time, see `cpuMs`). */
  pid: number;
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
      resolve({
        origin,
        pid: child.pid ?? 0,
        startupMs: performance.now() - started,
        stop: () => stopProcess(child),
      });
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

const CLOCK_TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU time (user + system, every thread) a process has used so far, in ms, from Linux's /proc; undefined
 * elsewhere. Steadier than throughput on a machine other work shares: it counts only this process's work.
 */
export function cpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}
