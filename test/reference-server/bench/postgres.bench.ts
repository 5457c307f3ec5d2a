/**
 * The reference server on PostgreSQL (needs a server: THREADWORK_BENCH_POSTGRES_URL, or the tests'
 * THREADWORK_TEST_POSTGRES_URL; without one it says so and measures nothing). In one run, on loopback
 * (autocannon, 20 connections in all): GET /v2/tasks (50 tasks) and POST /v2/tasks (Idempotency-Key)
 * on PostgreSQL with one server process and with two processes sharing the database (the connections
 * split between them), as ratios to the physical limit, a bare node:http + pg server on the same
 * database (peers/bare-postgres.ts: one prepared INSERT per create, one prepared SELECT per read),
 * committing as the reference server does (`synchronous_commit = off`) and, as a durable insert
 * (`on`), waiting for the disk; to the same server on its SQLite file; and to the faster of the two
 * peers (Prism, json-server). Budgets: keyed POST at least 0.5 of the bare durable insert, GET at
 * least 2 of the bare read. Then what the write locks cost (docs/postgresql.md): creates spread over
 * 20 lists against creates all on one list, on one process and on two. Then spawn to ready on
 * PostgreSQL, on an empty database (migrations run) and on one already migrated, beside spawn to ready
 * on SQLite (`--db :memory:`). `BENCH_ONLY=throughput` measures the first part alone.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { BENCH_KEY, benchSeed } from './peers/fixtures.ts';
import { CONNECTIONS, CREATE_TASK, LIST_TASKS, measure, startPeers, writeSeedFile } from './peers/load.ts';
import { type RunningServer, startProcess } from './peers/processes.ts';

const adminUrl = process.env.THREADWORK_BENCH_POSTGRES_URL ?? process.env.THREADWORK_TEST_POSTGRES_URL;
if (!adminUrl) {
  console.log(
    'skipped: set THREADWORK_BENCH_POSTGRES_URL (or THREADWORK_TEST_POSTGRES_URL) to a PostgreSQL server',
  );
  process.exit(0);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 7.5);
const ROUNDS = 5;
const STARTUP_RUNS = Number(process.env.BENCH_RUNS ?? 5);
const packageDir = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'threadwork-postgres-bench-'));
const prefix = `tw_bench_${process.pid}_`;
let databases = 0;

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database (C collation, as the tests use); answers its URL. */
async function createDatabase(): Promise<string> {
  const name = `${prefix}${++databases}`;
  await admin((client) =>
    client.query(`create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`),
  );
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabases(): Promise<void> {
  await admin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  });
}

/** Lists the lock measurement spreads its creates over. */
const LANES = 20;

/** Keyed creates per second on `origins`, each request on one of `lists` in turn. */
async function createsOn(
  origins: readonly string[],
  lists: readonly string[],
  seconds: number,
): Promise<number> {
  let next = 0;
  const results = await Promise.all(
    origins.map((origin) =>
      autocannon({
        url: `${origin}/v2/tasks`,
        connections: Math.max(1, Math.round(CONNECTIONS / origins.length)),
        duration: seconds,
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
              body: JSON.stringify({ list_id: lists[next++ % lists.length], title: 'Lock benchmark' }),
            }),
          },
        ],
      }),
    ),
  );
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
  if (failed > 0) console.log(`  note: ${failed} non-2xx/errors on the lock measurement`);
  return results.reduce((sum, result) => sum + result.requests.average, 0);
}

const node = process.execPath;
const launcher = join(packageDir, 'bin/server.mjs');
const ready = /^ready (\S+)$/m;
const startOn = (args: string[], databaseUrl?: string) =>
  startProcess(node, [launcher, '--port', '0', ...args], {
    cwd: packageDir,
    ready,
    env: databaseUrl ? { ...process.env, DATABASE_URL: databaseUrl } : process.env,
  });

const started: RunningServer[] = [];
try {
  // Throughput.
  const seedFile = writeSeedFile(work);
  const sqlite = await startOn(['--db', join(work, 'reference.db'), '--seed', seedFile]);
  const oneUrl = await createDatabase();
  const pgOne = await startOn(['--seed', seedFile], oneUrl);
  const twoUrl = await createDatabase();
  const pgTwoA = await startOn(['--seed', seedFile], twoUrl);
  const pgTwoB = await startOn([], twoUrl);
  const bare = (synchronousCommit: 'on' | 'off') =>
    startProcess(node, [join(packageDir, 'bench/peers/bare-postgres.ts')], {
      cwd: packageDir,
      ready,
      env: { ...process.env, DATABASE_URL: oneUrl, BARE_SYNCHRONOUS_COMMIT: synchronousCommit },
    });
  const [bareOff, bareOn] = [await bare('off'), await bare('on')];
  const peers = await startPeers(work);
  started.push(sqlite, pgOne, pgTwoA, pgTwoB, bareOff, bareOn, ...Object.values(peers));
  const servers: Record<string, string[]> = {
    sqlite: [sqlite.origin],
    'postgres, 1 process': [pgOne.origin],
    'postgres, 2 processes': [pgTwoA.origin, pgTwoB.origin],
    'bare pg': [bareOff.origin],
    'bare pg, durable': [bareOn.origin],
    prism: [peers.prism.origin],
    'json-server': [peers['json-server'].origin],
  };
  for (const endpoint of [LIST_TASKS, CREATE_TASK]) {
    const samples: Record<string, number[]> = {};
    for (const [name, origins] of Object.entries(servers)) {
      await measure(origins, endpoint, 2); // warm-up
      samples[name] = [];
    }
    // Rounds taking turns; each ratio is taken within one round and the median of the rounds reported.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, origins] of Object.entries(servers)) {
        const { rps, non2xx } = await measure(origins, endpoint, SECONDS / ROUNDS);
        samples[name]!.push(rps);
        if (non2xx > 0) console.log(`  note: ${name} answered ${non2xx} non-2xx/errors on ${endpoint.name}`);
      }
    }
    const at = (name: string, round: number) => samples[name]?.[round] ?? Number.NaN;
    const rounds = Array.from({ length: ROUNDS }, (_, round) => round);
    const ofRounds = (ratio: (round: number) => number) => summarise(rounds.map(ratio)).median;
    const fasterPeer = (round: number) => Math.max(at('prism', round), at('json-server', round));
    const context = Object.fromEntries(
      Object.entries(samples).map(([name, values]) => [
        `${name} req/s`,
        Math.round(summarise(values).median),
      ]),
    );
    const post = endpoint === CREATE_TASK;
    for (const name of ['postgres, 1 process', 'postgres, 2 processes']) {
      report({
        name: `${endpoint.name}: ${name} / bare pg${post ? ', durable' : ''}`,
        value: ofRounds((round) => at(name, round) / at(post ? 'bare pg, durable' : 'bare pg', round)),
        unit: 'x',
        ...(name === 'postgres, 1 process'
          ? { budget: { limit: post ? 0.5 : 2, better: 'higher' as const } }
          : {}),
      });
      if (post) {
        report({
          name: `${endpoint.name}: ${name} / bare pg (committing as the server does)`,
          value: ofRounds((round) => at(name, round) / at('bare pg', round)),
          unit: 'x',
        });
      }
      report({
        name: `${endpoint.name}: ${name} / sqlite`,
        value: ofRounds((round) => at(name, round) / at('sqlite', round)),
        unit: 'x',
      });
      report({
        name: `${endpoint.name}: ${name} / faster peer`,
        value: ofRounds((round) => at(name, round) / fasterPeer(round)),
        unit: 'x',
        ...(name === 'postgres, 2 processes' ? { context } : {}),
      });
    }
  }
  await Promise.all(started.splice(0).map((server) => server.stop()));
  if (process.env.BENCH_ONLY !== 'throughput') {
    // The locks: keyed creates spread over LANES lists, against the same number all on one list.
    const lanesSeed = benchSeed();
    const lanes = Array.from({ length: LANES }, (_, index) => `lst_lane_${index}`);
    lanesSeed.boards[0]!.lists.push(...lanes.map((id) => ({ id, name: id })));
    const lanesFile = join(work, 'lanes-seed.json');
    writeFileSync(lanesFile, JSON.stringify(lanesSeed));
    const lanesUrl = await createDatabase();
    const lanesA = await startOn(['--seed', lanesFile], lanesUrl);
    const lanesB = await startOn([], lanesUrl);
    started.push(lanesA, lanesB);
    const spreads = { 'one list': [lanes[0]!], [`${LANES} lists`]: lanes };
    for (const [name, origins] of [
      ['1 process', [lanesA.origin]],
      ['2 processes', [lanesA.origin, lanesB.origin]],
    ] as const) {
      const samples: Record<string, number[]> = { 'one list': [], [`${LANES} lists`]: [] };
      for (const lists of Object.values(spreads)) await createsOn(origins, lists, 1); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [spread, lists] of Object.entries(spreads)) {
          samples[spread]!.push(await createsOn(origins, lists, SECONDS / ROUNDS));
        }
      }
      const rounds = Array.from({ length: ROUNDS }, (_, round) => round);
      report({
        name: `POST /v2/tasks on PostgreSQL, ${name}: ${LANES} lists / one list`,
        value: summarise(
          rounds.map((round) => samples[`${LANES} lists`]![round]! / samples['one list']![round]!),
        ).median,
        unit: 'x',
        context: Object.fromEntries(
          Object.entries(samples).map(([spread, values]) => [
            `${spread} req/s`,
            Math.round(summarise(values).median),
          ]),
        ),
      });
    }
    await Promise.all(started.splice(0).map((server) => server.stop()));

    // Start-up, interleaved so machine noise hits every variant alike.
    const figures = { sqlite: [] as number[], empty: [] as number[], migrated: [] as number[] };
    const migratedUrl = await createDatabase();
    await (await startOn([], migratedUrl)).stop();
    for (let run = 0; run < STARTUP_RUNS; run++) {
      const emptyUrl = await createDatabase();
      for (const [name, server] of [
        ['sqlite', () => startOn(['--db', ':memory:'])],
        ['empty', () => startOn([], emptyUrl)],
        ['migrated', () => startOn([], migratedUrl)],
      ] as const) {
        const running = await server();
        figures[name].push(running.startupMs);
        await running.stop();
      }
    }
    const median = (values: number[]) => summarise(values).median;
    report({
      name: 'spawn to ready on PostgreSQL, empty database (migrations run), median',
      value: median(figures.empty),
      unit: 'ms',
      context: {
        'already migrated database': median(figures.migrated),
        'sqlite --db :memory:': median(figures.sqlite),
        'empty / sqlite': median(figures.empty) / median(figures.sqlite),
        'migrated / sqlite': median(figures.migrated) / median(figures.sqlite),
      },
    });
  }
} finally {
  await Promise.all(started.map((server) => server.stop()));
  await dropDatabases();
  rmSync(work, { recursive: true, force: true });
}
