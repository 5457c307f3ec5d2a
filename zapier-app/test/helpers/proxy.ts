/**
 * A tiny loopback proxy in front of a live reference server, to see what a step does when answers go
 * wrong after the service has acted: each request is passed through to the service, and then, for the
 * requests a test picks, the answer is replaced by a 502 with an HTML body (a gateway's), the connection
 * is dropped, the answer never comes (a hang), or it comes late. `down()` stops listening (the service
 * looks down: connection refused) and `up()` listens again on the same port.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault = 'bad-gateway' | 'drop' | 'hang' | { delayMs: number };

export interface SeenRequest {
  method: string;
  /** Path and query. */
  path: string;
  idempotencyKey: string | undefined;
  /** What the proxy did to its answer; undefined: passed it on. */
  fault: Fault | undefined;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface FaultRule {
  fault: Fault;
  /** Which requests (default: every one). */
  when?: (request: { method: string; path: string }) => boolean;
  /** How many matching requests it applies to (default: all, until `clear()`). */
  times?: number;
}

export interface FaultyProxy {
  /** e.g. `http://127.0.0.1:41234`: the service's origin as the app sees it. */
  readonly origin: string;
  /** Every request the proxy received, in order. */
  readonly seen: SeenRequest[];
  fail(rule: FaultRule): void;
  /** Removes every rule: answers pass through again. */
  clear(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

/** Writes (every method but GET), the ones a step's retries must not repeat. */
export const writes = (request: { method: string }) => request.method !== 'GET';

export async function startFaultyProxy(upstreamOrigin: string): Promise<FaultyProxy> {
  const upstream = new URL(upstreamOrigin);
  const seen: SeenRequest[] = [];
  let rules: Array<FaultRule & { left: number }> = [];
  const sockets = new Set<Socket>();

  const faultFor = (method: string, path: string): Fault | undefined => {
    const rule = rules.find(
      (candidate) => candidate.left > 0 && (candidate.when?.({ method, path }) ?? true),
    );
    if (rule === undefined) return undefined;
    rule.left--;
    return rule.fault;
  };

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    const fault = faultFor(method, path);
    const key = incoming.headers['idempotency-key'];
    seen.push({
      method,
      path,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      fault,
      at: Date.now(),
    });
    // The service always gets the request: the fault is in the answer, after it acted.
    const answer = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
      (resolve, reject) => {
        const headers = { ...incoming.headers, host: upstream.host };
        const forwarded = request(
          { host: upstream.hostname, port: upstream.port, method, path, headers },
          (response) => {
            const parts: Buffer[] = [];
            response.on('data', (part: Buffer) => parts.push(part));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 502,
                headers: response.headers,
                body: Buffer.concat(parts),
              }),
            );
            response.on('error', reject);
          },
        );
        forwarded.on('error', reject);
        forwarded.end(Buffer.concat(chunks));
      },
    );
    if (fault === 'drop') {
      incoming.socket.destroy();
      return;
    }
    if (fault === 'hang') return; // the client gives up; `close()` ends the socket
    if (fault === 'bad-gateway') {
      outgoing.writeHead(502, { 'content-type': 'text/html' }).end(GATEWAY_PAGE);
      return;
    }
    if (fault !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const { 'transfer-encoding': _chunked, connection: _connection, ...headers } = answer.headers;
    outgoing.writeHead(answer.status, headers).end(answer.body);
  };

  let server: Server = listener();
  function listener(): Server {
    const created = createServer((incoming, outgoing) => {
      handle(incoming, outgoing).catch(() => {
        if (!outgoing.headersSent) outgoing.writeHead(500).end('proxy: the service did not answer');
      });
    });
    created.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return created;
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    fail: (rule) => {
      rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    },
    clear: () => {
      rules = [];
    },
    down: async () => {
      await stop();
      // Clients learn of the closed keep-alive sockets before the next request (else that request meets a
      // reset socket: a lost answer, not a refused connection).
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    up: async () => {
      if (server.listening) return;
      server = listener();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: async () => {
      if (server.listening) await stop();
    },
  };
}
