import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The workspace root: the reference server's contract starts it from there. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
export const SEED_FILE = join(import.meta.dirname, '../fixtures/seed.json');

/** What the seed holds, as the tests use it. */
export const SEED = {
  credentials: {
    email: 'ada@example.com',
    apiKey: 'extadalegacykey01',
    apiSecret: 'extadalegacysecret01',
    keyName: 'Browser',
  },
  v2Key: 'tw_ext_ada_full_0123456789abcdef',
  roof: { id: '18c2f0a1b2c3d4e5', subject: 'Quote for the roof' },
  lunch: { id: '18c2f0a1b2c3d4e6', subject: 'Lunch on Friday?' },
  team: 'team_acme',
  unpaidTeam: 'team_garage',
  board: 'brd_roadmap',
  todo: 'lst_todo',
  doing: 'lst_doing',
  /** Ada's personal board (no team) and its list. */
  personalBoard: 'brd_mine',
  personalList: 'lst_mine',
  /** A thread of the mailbox page the service does not know (another account's). */
  unknownThread: '19cad268dd81f37e',
  longThread: '18c2f0a1b2c3d4e9',
} as const;

export interface RunningServer {
  origin: string;
  stop(): Promise<void>;
}

/** Starts the reference server by its contract (`--port 0 --db :memory: --seed FILE`) and waits for `ready`. */
export function startServer(): Promise<RunningServer> {
  const child = spawn(
    process.execPath,
    [
      'test/reference-server/bin/server.mjs',
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      SEED_FILE,
      '--test-control',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the reference server was not ready in 20 s:\n${stderr}`));
    }, 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reference server exited (${code}) before ready:\n${stderr}`));
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('ready '));
      if (line === undefined) return;
      clearTimeout(timer);
      resolveReady({
        origin: line.slice('ready '.length).trim(),
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
