/**
 * What this checkout's task writes cost against a baseline version of the server (`main`, or the ref in
 * BENCH_BASELINE; see peers/baseline.ts), both run side by side in one run on their SQLite files, loaded on
 * loopback (autocannon, 20 connections). Budget: POST /v2/tasks and PATCH /v2/tasks/{id} (a shade that
 * changes, custom values that change) at least 0.97 of the baseline's throughput: the checks a write makes
 * before it records its event (is it a change? which fields changed?) may cost at most 3 %. For context, a
 * PATCH that changes nothing (the shade the task has), which the baseline may still write and record. Beside
 * each throughput ratio, the ratio of the servers' own CPU time per request (Linux), which other work on the
 * machine disturbs far less. On a branch behind main, `BENCH_BASELINE=$(git merge-base HEAD main)` measures
 * the branch's own changes alone.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { unpackBaseline } from './peers/baseline.ts';
import { BENCH_KEY, benchSeed, READ_LIST } from './peers/fixtures.ts';
import { CONNECTIONS, CREATE_TASK } from './peers/load.ts';
import { cpuMs, type RunningServer, startProcess } from './peers/processes.ts';

/** Measured seconds per server and write, split into rounds. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 9);
const ROUNDS = 6;
const BUDGET = 0.97;
const packageDir = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'threadwork-task-writes-'));

const TAG_FIELD = 'cf_bench_tag';
const TAG_OPTIONS = ['opt_bench_a', 'opt_bench_b', 'opt_bench_c'];

/** The throughput bench's data, with a tag field on the board and the scope to set it. */
function seed() {
  const base = benchSeed();
  return {
    ...base,
    boards: base.boards.map((board) => ({
      ...board,
      custom_fields: [
        {
          id: TAG_FIELD,
          name: 'Stage',
          type: 'tag',
          options: TAG_OPTIONS.map((id, index) => ({ id, label: `Stage ${index}` })),
        },
      ],
    })),
    api_keys: base.api_keys.map((key) => ({ ...key, scopes: [...key.scopes, 'customfields.write'] })),
  };
}
const taskIds = seed()
  .tasks.filter((task) => task.list_id === READ_LIST)
  .map((task) => task.id);

interface Write {
  name: string;
  method: 'POST' | 'PATCH';
  /** The n-th request this server gets: its path and body. */
  request: (n: number) => { path: string; body: string };
}

/**
 * PATCHes go round the list's 50 tasks, so a task's next PATCH comes 50 requests after its last: with two
 * values taking turns per round of the list, each PATCH changes what it names.
 */
const patchOf = (body: (turn: number) => unknown) => (n: number) => ({
  path: `/v2/tasks/${taskIds[n % taskIds.length]}`,
  body: JSON.stringify(body(Math.floor(n / taskIds.length) % 2)),
});

const WRITES: Write[] = [
  {
    name: CREATE_TASK.name,
    method: 'POST',
    request: () => ({ path: CREATE_TASK.path, body: CREATE_TASK.body! }),
  },
  {
    name: 'PATCH /v2/tasks/{id} (shade changes)',
    method: 'PATCH',
    request: patchOf((turn) => ({ shade: turn === 0 ? 'red' : 'blue' })),
  },
  {
    name: 'PATCH /v2/tasks/{id} (custom values change)',
    method: 'PATCH',
    request: patchOf((turn) => ({
      custom_fields: [
        { field_id: TAG_FIELD, value: turn === 0 ? TAG_OPTIONS.slice(0, 2) : [TAG_OPTIONS[2]] },
      ],
    })),
  },
  {
    name: 'PATCH /v2/tasks/{id} (the shade it has)',
    method: 'PATCH',
    request: patchOf(() => ({ shade: 'teal' })),
  },
];

/**
 * Requests per second `server` answers on `write` over `seconds`, and the CPU time it spent per request
 * (µs); `counter` numbers this server's requests.
 */
async function measure(
  server: RunningServer,
  write: Write,
  counter: { n: number },
  seconds: number,
): Promise<{ rps: number; cpuUs: number; non2xx: number }> {
  const cpuBefore = cpuMs(server.pid);
  const result = await autocannon({
    url: server.origin,
    connections: CONNECTIONS,
    duration: seconds,
    method: write.method,
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          ...write.request(counter.n++),
          headers: {
            ...request.headers,
            ...(write.method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
          },
        }),
      },
    ],
  });
  const cpuAfter = cpuMs(server.pid);
  const cpuUs =
    cpuBefore === undefined || cpuAfter === undefined
      ? Number.NaN
      : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, cpuUs, non2xx: result.non2xx + result.errors };
}

const baseline = unpackBaseline();
if (baseline.lockfileDiffers) {
  console.log(
    `  note: ${baseline.ref}'s lockfile differs from this checkout's; it runs with this checkout's packages`,
  );
}
const seedFile = join(work, 'seed.json');
writeFileSync(seedFile, JSON.stringify(seed()));
const start = (dir: string, db: string) =>
  startProcess(process.execPath, ['src/cli.ts', '--port', '0', '--db', join(work, db), '--seed', seedFile], {
    cwd: dir,
    ready: /ready (\S+)/,
  });
const servers: Record<'branch' | 'baseline', RunningServer> = {
  branch: await start(packageDir, 'branch.db'),
  baseline: await start(baseline.packageDir, 'baseline.db'),
};
try {
  for (const write of WRITES) {
    const counters = { branch: { n: 0 }, baseline: { n: 0 } };
    const samples = { branch: [] as number[], baseline: [] as number[] };
    const cpu = { branch: [] as number[], baseline: [] as number[] };
    for (const name of ['branch', 'baseline'] as const) {
      await measure(servers[name], write, counters[name], 2); // warm-up
    }
    // Rounds taking turns, each ratio taken within one round, the median of the rounds reported (this
    // machine's speed drifts within seconds). Which server goes first alternates from round to round.
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['branch', 'baseline'] as const) : (['baseline', 'branch'] as const);
      for (const name of order) {
        const measured = await measure(servers[name], write, counters[name], SECONDS / ROUNDS);
        const { rps, non2xx } = measured;
        samples[name].push(rps);
        cpu[name].push(measured.cpuUs);
        if (non2xx > 0) console.log(`  note: ${name} answered ${non2xx} non-2xx/errors on ${write.name}`);
      }
    }
    const ratios = samples.branch.map((value, round) => value / samples.baseline[round]!);
    const noop = write.name.includes('the shade it has');
    report({
      name: `${write.name}: this checkout / ${baseline.ref}`,
      value: summarise(ratios).median,
      unit: 'x',
      ...(noop ? {} : { budget: { limit: BUDGET, better: 'higher' as const } }),
      context: {
        'this checkout req/s': Math.round(summarise(samples.branch).median),
        [`${baseline.ref} (${baseline.commit.slice(0, 7)}) req/s`]: Math.round(
          summarise(samples.baseline).median,
        ),
        'ratios, lowest and highest': `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`,
        // The steadier figure on a shared machine: the server's own CPU time per request, as a ratio.
        [`CPU per request, ${baseline.ref} / this checkout`]:
          summarise(cpu.baseline).median / summarise(cpu.branch).median,
        'this checkout CPU µs/request': Math.round(summarise(cpu.branch).median),
      },
    });
  }
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
  baseline.remove();
  rmSync(work, { recursive: true, force: true });
}
