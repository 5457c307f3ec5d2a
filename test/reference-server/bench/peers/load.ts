/** What the throughput benchmarks share: the endpoints they load, the two peers, and one measurement. */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_KEY, benchSeed, benchTask, READ_LIST, WRITE_LIST } from './fixtures.ts';
import { benchOpenApi } from './openapi.ts';
import { freePort, type RunningServer, startProcess } from './processes.ts';

export const CONNECTIONS = 20;
const packageDir = new URL('../..', import.meta.url).pathname;
const bin = (name: string) => join(packageDir, 'node_modules', '.bin', name);

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export const ME: Endpoint = { name: 'GET /v2/me', method: 'GET', path: '/v2/me' };
export const LIST_TASKS: Endpoint = {
  name: 'GET /v2/tasks (50 tasks)',
  method: 'GET',
  path: `/v2/tasks?list_id=${READ_LIST}`,
};
export const CREATE_TASK: Endpoint = {
  name: 'POST /v2/tasks (Idempotency-Key)',
  method: 'POST',
  path: '/v2/tasks',
  body: JSON.stringify({ list_id: WRITE_LIST, title: 'Benchmark task', notes: 'created under load' }),
};

/** Writes the bench seed into `work` and answers its path. */
export function writeSeedFile(work: string): string {
  const seedFile = join(work, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(benchSeed()));
  return seedFile;
}

/** Stoplight Prism in mock mode (logging at warn) and json-server 0.17, serving the bench data. */
export async function startPeers(work: string): Promise<Record<'prism' | 'json-server', RunningServer>> {
  const openApiFile = join(work, 'openapi.json');
  writeFileSync(openApiFile, JSON.stringify(benchOpenApi()));
  const tasks = benchSeed().tasks.map(benchTask);
  const jsonDb = join(work, 'json-server-db.json');
  writeFileSync(
    jsonDb,
    JSON.stringify({
      me: { user_id: 'usr_bench', email: 'bench@example.com', display_name: 'Bench', key: null },
      tasks,
    }),
  );
  const routes = join(work, 'routes.json');
  writeFileSync(routes, JSON.stringify({ '/v2/*': '/$1' }));
  const prismPort = await freePort();
  const prism = await startProcess(
    bin('prism'),
    ['mock', openApiFile, '--port', String(prismPort), '-v', 'warn', '--errors', 'false'],
    // At warn level Prism prints nothing once ready: probe the port instead.
    { origin: `http://127.0.0.1:${prismPort}`, probe: '/v2/me', timeoutMs: 60_000 },
  );
  const jsonPort = await freePort();
  const jsonServer = await startProcess(
    bin('json-server'),
    [jsonDb, '--port', String(jsonPort), '--routes', routes, '--quiet'],
    { origin: `http://127.0.0.1:${jsonPort}`, probe: '/v2/me', timeoutMs: 60_000 },
  );
  return { prism, 'json-server': jsonServer };
}

/**
 * Requests per second that `origins` answer together on `endpoint` over `seconds`: the CONNECTIONS are
 * shared out among them (several origins: several processes serving one database).
 */
export async function measure(
  origins: readonly string[],
  endpoint: Endpoint,
  seconds: number,
): Promise<{ rps: number; non2xx: number }> {
  const results = await Promise.all(
    origins.map((origin) =>
      autocannon({
        url: origin + endpoint.path,
        connections: Math.max(1, Math.round(CONNECTIONS / origins.length)),
        duration: seconds,
        method: endpoint.method,
        headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
        body: endpoint.body,
        // Every write carries its own key, as a real client's retry-safe create would.
        requests: endpoint.method === 'POST' ? [{ setupRequest: withIdempotencyKey }] : undefined,
      }),
    ),
  );
  return {
    rps: results.reduce((sum, result) => sum + result.requests.average, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
  };
}

function withIdempotencyKey(request: autocannon.Request): autocannon.Request {
  return { ...request, headers: { ...request.headers, 'idempotency-key': randomUUID() } };
}
