/**
 * Throughput on loopback (autocannon, 20 connections) of the reference server on its file database, side by
 * side in one run with a bare `node:http` JSON answer and two peers: Stoplight Prism in mock mode (logging at
 * warn) and json-server 0.17. Budgets: GET /v2/me at least 0.5 of bare; on GET /v2/me, GET /v2/tasks (50 tasks)
 * and POST /v2/tasks with an Idempotency-Key, at least 1.5 times the faster peer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { CREATE_TASK, LIST_TASKS, ME, measure, startPeers, writeSeedFile } from './peers/load.ts';
import { type RunningServer, startProcess } from './peers/processes.ts';

/** Measured seconds per server and endpoint, split into rounds. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 7.5);
const ROUNDS = 5;
const packageDir = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'threadwork-throughput-'));

const endpoints = [ME, LIST_TASKS, CREATE_TASK];

async function startAll(): Promise<Record<string, RunningServer>> {
  const seedFile = writeSeedFile(work);
  const node = process.execPath;
  const bare = await startProcess(node, [join(packageDir, 'bench/peers/bare-server.ts')], {
    ready: /ready (\S+)/,
  });
  const reference = await startProcess(
    node,
    ['src/cli.ts', '--port', '0', '--db', join(work, 'reference.db'), '--seed', seedFile],
    { cwd: packageDir, ready: /ready (\S+)/ },
  );
  return { bare, reference, ...(await startPeers(work)) };
}

const servers = await startAll();
try {
  for (const endpoint of endpoints) {
    const samples: Record<string, number[]> = {};
    for (const [name, server] of Object.entries(servers)) {
      await measure([server.origin], endpoint, 2); // warm-up: JIT and caches reach their steady state
      samples[name] = [];
    }
    // Rounds taking turns, each ratio taken within one round and the median of the rounds reported:
    // this machine's speed drifts by ±20 % within seconds, and a round's servers run back to back.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const { rps: value, non2xx } = await measure([server.origin], endpoint, SECONDS / ROUNDS);
        samples[name]!.push(value);
        if (non2xx > 0 && name !== 'bare')
          console.log(`  note: ${name} answered ${non2xx} non-2xx/errors on ${endpoint.name}`);
      }
    }
    const at = (name: string, round: number) => samples[name]?.[round] ?? Number.NaN;
    const rounds = Array.from({ length: ROUNDS }, (_, round) => round);
    const ofRounds = (ratio: (round: number) => number) => summarise(rounds.map(ratio)).median;
    const context = Object.fromEntries(
      Object.entries(samples).map(([name, values]) => [
        `${name} req/s (${ofRounds((round) => at(name, round) / at('bare', round)).toFixed(3)} of bare)`,
        Math.round(summarise(values).median),
      ]),
    );
    if (endpoint.path === '/v2/me') {
      report({
        name: `${endpoint.name}: reference / bare`,
        value: ofRounds((round) => at('reference', round) / at('bare', round)),
        unit: 'x',
        budget: { limit: 0.5, better: 'higher' },
        context,
      });
    }
    report({
      name: `${endpoint.name}: reference / faster peer`,
      value: ofRounds(
        (round) => at('reference', round) / Math.max(at('prism', round), at('json-server', round)),
      ),
      unit: 'x',
      budget: { limit: 1.5, better: 'higher' },
      ...(endpoint.path === '/v2/me' ? {} : { context }),
    });
  }
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  rmSync(work, { recursive: true, force: true });
}
