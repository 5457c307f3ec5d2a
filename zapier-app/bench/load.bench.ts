/**
 * What loading the built app costs over loading zapier-platform-core alone (which every Zapier app loads):
 * the import time of `dist/index.js` (core, plus the bundled app; the shared client, zod and ky load only when
 * a step first needs them) against the import time of `zapier-platform-core`, each in a fresh Node process,
 * alternated so both see the same machine. Budget: at most 15 % more (docs/zapier-app.md, "Load time"); the
 * CPU time ratio of the same processes is reported beside it.
 *
 * Run: node zapier-app/bench/load.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { report, summarise } from '../../scripts/bench-kit.ts';

const APP_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 15; // per side, after one warm-up each
const BUDGET_RATIO = 1.15;

// The bundle measured is the one the sources build now.
const build = spawnSync(process.execPath, [join(APP_ROOT, 'scripts', 'build.ts')], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('the app did not build');

interface ImportCost {
  wall: number;
  cpu: number;
}

/**
 * What one fresh process spends importing `specifier` (resolved from the app's folder): wall milliseconds,
 * and CPU milliseconds (user + system), which a busy shared machine disturbs less.
 */
function importTime(specifier: string): ImportCost {
  const script = `const cpu = process.cpuUsage(); const start = performance.now(); await import(${JSON.stringify(specifier)}); const wall = performance.now() - start; const used = process.cpuUsage(cpu); process.stdout.write(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: APP_ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`importing ${specifier} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ImportCost;
}

const core = 'zapier-platform-core';
const app = pathToFileURL(join(APP_ROOT, 'dist', 'index.js')).href;
importTime(core);
importTime(app);
const coreRuns: ImportCost[] = [];
const appRuns: ImportCost[] = [];
for (let run = 0; run < RUNS; run++) {
  if (run % 2 === 0) {
    coreRuns.push(importTime(core));
    appRuns.push(importTime(app));
  } else {
    appRuns.push(importTime(app));
    coreRuns.push(importTime(core));
  }
}
const coreSummary = summarise(coreRuns.map((run) => run.wall));
const appSummary = summarise(appRuns.map((run) => run.wall));
const coreCpu = summarise(coreRuns.map((run) => run.cpu));
const appCpu = summarise(appRuns.map((run) => run.cpu));
report({
  name: 'load the built app vs zapier-platform-core alone, median import time ratio',
  value: appSummary.median / coreSummary.median,
  unit: '×',
  budget: { limit: BUDGET_RATIO, better: 'lower' },
  context: {
    'core median ms': coreSummary.median,
    'app median ms': appSummary.median,
    'median CPU time ratio': appCpu.median / coreCpu.median,
    'processes per side': coreSummary.samples,
  },
});
