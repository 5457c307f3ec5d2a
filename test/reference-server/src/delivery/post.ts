// One HTTP attempt of a delivery: POST the body, wait for the whole answer within the time-out, report.
// node:http with keep-alive agents rather than fetch: a delivery is one small POST, and fetch's stream
// machinery cost several times more CPU per request at the delivery rates the server must sustain.
// Every attempt checks its target again and connects only to the addresses it checked (DNS rebinding);
// redirects are not followed.
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { resolveTarget, TargetRefused, type WebhookTargetPolicy } from '../domain/webhook-targets.ts';

export interface AttemptResult {
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Poster {
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** The answer's body is read (so the connection can be reused) but no more than this. */
const MAX_ANSWER_BYTES = 64 * 1024;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for the socket that answers only the addresses already checked. */
function pinnedLookup(addresses: readonly string[]) {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted === 0 ? entries : entries.filter((entry) => entry.family === wanted);
    if (options.all) callback(null, usable);
    else if (usable[0]) callback(null, usable[0].address, usable[0].family);
    else callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '');
  };
}

export function createPoster(maxSockets: number, targets: WebhookTargetPolicy): Poster {
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };

  function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number) {
    return new Promise<AttemptResult>((resolve) => {
      const started = performance.now();
      let settled = false;
      let statusCode: number | null = null;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const ok = error === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({
          ok,
          statusCode,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          error: ok ? null : (error ?? `the receiver answered ${statusCode}`),
        });
      };

      // The time-out counts from here: resolving the target is part of the attempt.
      let request: http.ClientRequest | undefined;
      const timer = setTimeout(() => {
        finish(`no answer within ${timeoutMs} ms`);
        request?.destroy();
      }, timeoutMs);

      const send = (target: URL, addresses: string[]) => {
        const secure = target.protocol === 'https:';
        const request = (secure ? https : http).request(
          target,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            agent: secure ? agents.https : agents.http,
            lookup: pinnedLookup(addresses),
          },
          (response) => {
            statusCode = response.statusCode ?? null;
            let read = 0;
            response.on('data', (chunk: Buffer) => {
              read += chunk.length;
              if (read > MAX_ANSWER_BYTES) response.destroy();
            });
            // The status line is what counts; a cut-off answer body does not turn a 2xx into a failure.
            response.on('end', () => finish(null));
            response.on('close', () => finish(null));
            response.on('error', () => finish(null));
          },
        );
        // A redirect is an answer like any other non-2xx: the target is what the user configured.
        request.on('error', (error: NodeJS.ErrnoException) => {
          finish(error.code ? `${error.code}: ${error.message}` : error.message);
        });
        request.end(body);
        return request;
      };

      resolveTarget(url, targets).then(
        (addresses) => {
          if (settled) return;
          request = send(new URL(url), addresses);
        },
        (error: unknown) => {
          if (error instanceof TargetRefused) finish(`target refused: ${error.message}`);
          else finish(`could not resolve the target: ${(error as Error).message}`);
        },
      );
    });
  }

  return {
    post,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
