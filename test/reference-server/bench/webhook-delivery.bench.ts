/**
 * Commit-to-receipt latency of webhook delivery. The server runs in this process on a file database, with
 * one v2 subscription to a receiver running on its own thread (as a real receiver would be elsewhere);
 * tasks are created through the domain at 200 per second for about 10 seconds, each creation recording
 * task.created in its own transaction. Each event's commit time is taken when the commit wakes the
 * delivery worker; its receipt time when the receiver has the whole body. Times are absolute
 * (`performance.timeOrigin + performance.now()`), so both threads share one clock. The first second is a
 * warm-up (compilation, first connections) and is not counted. Budgets: p50 under 20 ms, p99 under 100 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { createTask } from '../src/domain/tasks/commands.ts';
import { type DomainContext, runInTransaction } from '../src/domain/transaction.ts';
import { createSubscription } from '../src/domain/webhooks.ts';
import { startServer } from '../src/index.ts';
import { benchSeed, WRITE_LIST } from './peers/fixtures.ts';

const RATE_PER_SECOND = 200;
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const WARMUP_EVENTS = RATE_PER_SECOND;
const EVENTS = WARMUP_EVENTS + RATE_PER_SECOND * SECONDS;
const DRAIN_TIMEOUT_MS = 10_000;

const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(join(tmpdir(), 'threadwork-webhook-bench-'));

// The receiver: answers 200 at once and reports `[task id, receipt time]` for every delivery.
const receiver = new Worker(
  `
  const { parentPort } = require('node:worker_threads');
  const { createServer } = require('node:http');
  const clock = () => performance.timeOrigin + performance.now();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = clock();
      response.end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      parentPort.postMessage([event.data.task.id, at]);
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort.postMessage(['listening', server.address().port]));
  parentPort.on('message', (message) => { if (message === 'close') server.close(() => process.exit(0)); });
  `,
  { eval: true },
);
const committedAt = new Map<string, number>();
const receivedAt = new Map<string, number>();
const port = await new Promise<number>((resolve) => {
  receiver.on('message', ([key, value]: [string, number]) => {
    if (key === 'listening') resolve(value);
    else receivedAt.set(key, value);
  });
});

const server = await startServer({
  port: 0,
  db: join(work, 'bench.db'),
  allowInsecureWebhooks: true,
  seed: benchSeed(),
});

// The worker is woken right after each commit: that instant is the commit time of the event.
const worker = server.app.ctx.outbox;
let lastCommit = 0;
const ctx: DomainContext = {
  ...server.app.ctx,
  outbox: {
    wake() {
      lastCommit = clock();
      worker.wake();
    },
  },
};

await runInTransaction(ctx, (tx) =>
  createSubscription(
    tx,
    { userId: 'usr_bench', keyId: null },
    { target_url: `http://127.0.0.1:${port}/hook`, events: ['task.created'] },
    server.app.ctx.targets,
    ctx.now(),
  ),
);

const counted: string[] = [];
const started = performance.now();
for (let index = 0; index < EVENTS; index++) {
  const wait = started + (index * 1000) / RATE_PER_SECOND - performance.now();
  if (wait > 1) await sleep(wait);
  const task = await runInTransaction(ctx, (tx) =>
    createTask(tx, 'usr_bench', { list_id: WRITE_LIST, title: `Event ${index}` }, ctx.now()),
  );
  committedAt.set(task.id, lastCommit);
  if (index >= WARMUP_EVENTS) counted.push(task.id);
}
const recordingSeconds = (performance.now() - started) / 1000;

const drainDeadline = performance.now() + DRAIN_TIMEOUT_MS;
while (receivedAt.size < committedAt.size && performance.now() < drainDeadline) await sleep(20);

await server.close();
receiver.postMessage('close');
await new Promise((resolve) => receiver.once('exit', resolve));
rmSync(work, { recursive: true, force: true });

const latencies = counted.flatMap((id) => {
  const received = receivedAt.get(id);
  return received === undefined ? [] : [received - committedAt.get(id)!];
});
const summary = summarise(latencies);
const context = {
  events: counted.length,
  received: latencies.length,
  'events/s': committedAt.size / recordingSeconds,
};
report({
  name: 'webhook commit-to-receipt at 200 events/s (p50)',
  value: summary.median,
  unit: 'ms',
  budget: { limit: 20, better: 'lower' },
  context,
});
report({
  name: 'webhook commit-to-receipt at 200 events/s (p99)',
  value: summary.p99,
  unit: 'ms',
  budget: { limit: 100, better: 'lower' },
  context: { ...context, max: Math.max(...latencies) },
});
if (receivedAt.size < committedAt.size) {
  console.error(
    `only ${receivedAt.size} of ${committedAt.size} events arrived within ${DRAIN_TIMEOUT_MS} ms`,
  );
  process.exitCode = 1;
}
