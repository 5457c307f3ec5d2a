/**
 * What the v2 client adds to a request: median latency of `client.me.get()` against a bare `fetch` +
 * `res.json()` of the same URL, interleaved in batches so both see the same machine state. The budget is the
 * overhead in microseconds per call on a local round trip (ky's request objects, the retry wrapper, envelope
 * parsing with zod); the ratio to the bare fetch is reported beside it. A ratio alone was the wrong measure:
 * a local round trip takes a fraction of a millisecond, so any fixed cost looks large against it, while over
 * a real network it vanishes. The server runs
 * in a child process (this file started with `--serve`) so its event loop does not share the client's CPU.
 *
 * Run: node shared/bench/client-overhead.bench.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { report, summarise } from '../../scripts/bench-kit.ts';
import { ThreadworkClient } from '../src/index.ts';

const API_KEY = 'tw_bench_key';
const WARMUP = 1_000;
const BATCH = 100;
const BATCHES = 25; // 2,500 measured requests per side
/** Per-call overhead over a bare fetch, in microseconds (median against median). */
const BUDGET_OVERHEAD_US = 250;

const ME_ENVELOPE = JSON.stringify({
  data: {
    user_id: 'usr_ada',
    email: 'ada@example.com',
    display_name: 'Ada Lovelace',
    key: { id: 'key_bench', type: 'v2', scopes: ['boards.read', 'tasks.read'] },
  },
  meta: { request_id: 'req_bench' },
});

function serve(): void {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/v2/me') {
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(ME_ENVELOPE),
        });
        response.end(ME_ENVELOPE);
      } else {
        response.writeHead(404).end();
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    process.stdout.write(`${address.port}\n`);
  });
  // The parent closes stdin when it is done (or dies): stop with it.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

async function startServer(): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, origin: `http://127.0.0.1:${chunk.toString().trim()}` };
}

async function measure(fn: () => Promise<unknown>, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    into.push(performance.now() - start);
  }
}

async function main(): Promise<void> {
  const { child, origin } = await startServer();
  try {
    const url = `${origin}/v2/me`;
    const headers = { authorization: `Bearer ${API_KEY}`, accept: 'application/json' };
    const bare = async () => (await fetch(url, { headers })).json();
    const client = new ThreadworkClient({ baseUrl: `${origin}/v2`, apiKey: API_KEY });
    const viaClient = () => client.me.get();

    const discard: number[] = [];
    await measure(bare, WARMUP, discard);
    await measure(viaClient, WARMUP, discard);

    const bareRuns: number[] = [];
    const clientRuns: number[] = [];
    for (let batch = 0; batch < BATCHES; batch++) {
      // Alternate which side goes first so neither always runs on a just-warmed connection.
      if (batch % 2 === 0) {
        await measure(bare, BATCH, bareRuns);
        await measure(viaClient, BATCH, clientRuns);
      } else {
        await measure(viaClient, BATCH, clientRuns);
        await measure(bare, BATCH, bareRuns);
      }
    }
    const bareSummary = summarise(bareRuns);
    const clientSummary = summarise(clientRuns);
    const overheadUs = (clientSummary.median - bareSummary.median) * 1000;
    const context = {
      'bare median ms': bareSummary.median,
      'client median ms': clientSummary.median,
      'bare p95 ms': bareSummary.p95,
      'client p95 ms': clientSummary.p95,
      'requests per side': bareSummary.samples,
    };
    report({
      name: 'client.me.get() overhead over a bare fetch, local round trip (median)',
      value: overheadUs,
      unit: 'µs',
      budget: { limit: BUDGET_OVERHEAD_US, better: 'lower' },
      context,
    });
    report({
      name: 'client.me.get() vs bare fetch, median latency ratio (reported, not budgeted)',
      value: clientSummary.median / bareSummary.median,
      unit: '×',
    });
  } finally {
    child.stdin?.end();
    child.kill();
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
