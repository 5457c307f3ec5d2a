import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** What the proxy does with each request: pass it on, pass it on late, never answer, or drop the connection. */
export type ProxyMode = { kind: 'pass' } | { kind: 'slow'; ms: number } | { kind: 'hang' } | { kind: 'down' };

export interface ServiceProxy {
  origin: string;
  set(mode: ProxyMode): void;
  /**
   * Every request that reached the proxy: method, path (without the query), when it came and when its
   * answer went (performance.now(); `done` stays undefined while it is in flight).
   */
  readonly log: { method: string; path: string; at: number; done?: number }[];
  /** Resolves once no request is in flight (a closed tab's requests still hold connections until answered). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A loopback proxy in front of the reference server that makes the service slow, hung or down on demand,
 * as a mailbox user meets it. Hung requests are answered never (until `stop`).
 */
export async function startProxy(target: string): Promise<ServiceProxy> {
  let mode: ProxyMode = { kind: 'pass' };
  const log: ServiceProxy['log'] = [];
  let inFlight = 0;
  const settled: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (request, response) => {
    const entry: ServiceProxy['log'][number] = {
      method: request.method ?? 'GET',
      path: (request.url ?? '').split('?')[0]!,
      at: performance.now(),
    };
    log.push(entry);
    inFlight += 1;
    response.once('close', () => {
      entry.done = performance.now();
      inFlight -= 1;
      if (inFlight === 0) for (const done of settled.splice(0)) done();
    });
    const current = mode;
    if (current.kind === 'down') {
      request.socket.destroy();
      return;
    }
    if (current.kind === 'hang') return;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (current.kind === 'slow') await new Promise((done) => setTimeout(done, current.ms));
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (name !== 'host' && name !== 'content-length' && typeof value === 'string') headers.set(name, value);
    }
    try {
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(body);
    } catch {
      request.socket.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    set: (next) => {
      mode = next;
    },
    log,
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((done) => settled.push(done))),
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
