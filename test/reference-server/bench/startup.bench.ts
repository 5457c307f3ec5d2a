/**
 * Spawn to `ready`: `pnpm run server --db :memory: --port 0` from the repo root, exactly as the contract says
 * (budget 600 ms), the start command without pnpm as a ratio of a bare Fastify server's spawn to listening
 * (the baseline measured in the same run: what is left is the server's own start-up work), and the bundled
 * demo workspace's extra cost (budget under 200 ms). For context, in the same run: a bare `node` spawn,
 * pnpm's own start, and the CLI run from its TypeScript sources (what the start command's bundle saves).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { startProcess } from './peers/processes.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const packageDir = new URL('..', import.meta.url).pathname;
const repoRoot = join(packageDir, '..', '..');

async function spawnToReady(command: string, args: string[], cwd: string): Promise<number> {
  const server = await startProcess(command, args, { cwd, ready: /^ready (\S+)$/m });
  await server.stop();
  return server.startupMs;
}

function spawnToExit(command: string, args: string[]): number {
  const started = performance.now();
  spawnSync(command, args, { stdio: 'ignore' });
  return performance.now() - started;
}

const figures = {
  pnpm: [] as number[],
  launcher: [] as number[],
  sources: [] as number[],
  demo: [] as number[],
  bareNode: [] as number[],
  bareFastify: [] as number[],
  pnpmVersion: [] as number[],
};
const serverArgs = ['--db', ':memory:', '--port', '0'];
// Interleaved so machine noise hits every variant alike.
for (let run = 0; run < RUNS; run++) {
  figures.bareNode.push(spawnToExit(process.execPath, ['-e', '']));
  figures.pnpmVersion.push(spawnToExit('pnpm', ['--version']));
  figures.bareFastify.push(
    await spawnToReady(process.execPath, ['bench/peers/bare-fastify.cjs'], packageDir),
  );
  figures.pnpm.push(await spawnToReady('pnpm', ['run', 'server', ...serverArgs], repoRoot));
  figures.launcher.push(await spawnToReady(process.execPath, ['bin/server.mjs', ...serverArgs], packageDir));
  figures.demo.push(
    await spawnToReady(process.execPath, ['bin/server.mjs', ...serverArgs, '--demo'], packageDir),
  );
  figures.sources.push(await spawnToReady(process.execPath, ['src/cli.ts', ...serverArgs], packageDir));
}

const median = (values: number[]) => summarise(values).median;
report({
  name: 'pnpm run server --db :memory: --port 0, spawn to ready (median)',
  value: median(figures.pnpm),
  unit: 'ms',
  budget: { limit: 600, better: 'lower' },
  context: {
    'node spawn, empty script': median(figures.bareNode),
    'pnpm --version': median(figures.pnpmVersion),
    'node bin/server.mjs (no pnpm)': median(figures.launcher),
    'node src/cli.ts (sources, no bundle)': median(figures.sources),
  },
});
report({
  name: 'node bin/server.mjs --db :memory: --port 0, spawn to ready ÷ bare Fastify listen (median ratio)',
  value: median(figures.launcher) / median(figures.bareFastify),
  unit: 'x',
  budget: { limit: 1.5, better: 'lower' },
  context: {
    'node bin/server.mjs (ms)': median(figures.launcher),
    'bare Fastify, one route (ms)': median(figures.bareFastify),
    'node spawn, empty script (ms)': median(figures.bareNode),
  },
});
report({
  name: 'demo workspace, extra spawn-to-ready time (median difference)',
  value: median(figures.demo) - median(figures.launcher),
  unit: 'ms',
  budget: { limit: 200, better: 'lower' },
  context: { 'node bin/server.mjs --demo': median(figures.demo) },
});
