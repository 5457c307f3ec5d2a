import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, with its body exactly as sent (for signature checks). */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
  /** The status the receiver answered. */
  readonly answeredWith: number;
}

/** Decides the answer to each request; `index` counts every request received before this one. */
export type Responder = (request: Omit<ReceivedRequest, 'answeredWith'>, index: number) => number;

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks`. */
  readonly url: string;
  readonly received: readonly ReceivedRequest[];
  /** Resolves with the first request (already received or still to come) that matches; bounded. */
  waitFor(match: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 10_000;

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A local webhook receiver on 127.0.0.1 (a free port); answers 200 unless `respond` says otherwise. */
export async function startReceiver(respond: Responder = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const waiters = new Set<{
    match: (request: ReceivedRequest) => boolean;
    resolve: (r: ReceivedRequest) => void;
  }>();
  let count = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const incoming = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        rawBody,
        json: parseJson(rawBody),
      };
      const status = respond(incoming, count++);
      const entry: ReceivedRequest = { ...incoming, answeredWith: status };
      received.push(entry);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
      for (const waiter of waiters) {
        if (waiter.match(entry)) {
          waiters.delete(waiter);
          waiter.resolve(entry);
        }
      }
    });
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor(match, timeoutMs = DEFAULT_WAIT_MS) {
      const already = received.find(match);
      if (already) return Promise.resolve(already);
      return new Promise((resolveWait, reject) => {
        const waiter = {
          match,
          resolve: (request: ReceivedRequest) => {
            clearTimeout(timer);
            resolveWait(request);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `no matching webhook request within ${timeoutMs} ms; received ${received.length}: ${received
                .map((r) => r.rawBody.toString('utf8').slice(0, 120))
                .join(' | ')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () =>
      new Promise((resolveClose, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolveClose()));
      }),
  };
}

/** Reads a header that must be there once. */
export function singleHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Retries `read` until `done` holds for its result, at most `timeoutMs`; returns the last result. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = DEFAULT_WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolveSleep) => setTimeout(resolveSleep, 50));
  }
}
