// One HTTP attempt of a delivery: POST the body, wait for the whole answer within the time-out, report.
// node:http with keep-alive agents rather than fetch: a delivery is one small POST, and fetch's stream
// machinery cost several times more CPU per request at the delivery rates the server must sustain.
// Every attempt checks its target again and connects only to the addresses it checked (DNS rebinding);
// redirects are not followed. The answer is reported as Stripe shows it: its content-type and the first
// 4 KiB of its body, as text (docs/webhooks.md, "Delivery").
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { SIGNATURE_HEADER } from '@threadwork/shared/webhooks';
import { resolveTarget, TargetRefused, type WebhookTargetPolicy } from '../domain/webhook-targets.ts';

export interface AttemptResult {
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The answer's content-type; null when no answer came or it named none. */
  responseContentType: string | null;
  /** The first ANSWER_BODY_BYTES of the answer's body as text (`answerText`); null when no answer came. */
  responseBody: string | null;
}

export interface Poster {
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult>;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** The part of an answer's body the log keeps, in bytes of UTF-8: Stripe's 4 KiB. */
const ANSWER_BODY_BYTES = 4096;
/**
 * What is read of an answer's body: a little more than is kept, so that an echoed signature across the
 * cut is still found whole (`answerText`). A longer answer's connection is closed rather than read on.
 */
const ANSWER_READ_BYTES = ANSWER_BODY_BYTES + 256;
/** Stands in the logged answer for the request's signature, wherever the receiver echoed it. */
const SIGNATURE_REMOVED = `[${SIGNATURE_HEADER}]`;

/**
 * An answer's first bytes as the log keeps them: UTF-8 text (a byte that is not UTF-8, or NUL, which no
 * text column takes, reads as U+FFFD), the request's signature removed (`hidden`: the signature header
 * and each of its `v1=` values; the log never stores it), then cut to ANSWER_BODY_BYTES at a character
 * boundary.
 */
function answerText(bytes: Buffer, hidden: readonly string[]): string {
  let text = new TextDecoder().decode(bytes).replaceAll('\0', '\uFFFD');
  for (const secret of hidden) if (secret !== '') text = text.replaceAll(secret, SIGNATURE_REMOVED);
  if (Buffer.byteLength(text) <= ANSWER_BODY_BYTES) return text;
  // In streaming mode the decoder holds back a character cut in two rather than answering U+FFFD.
  return new TextDecoder().decode(Buffer.from(text).subarray(0, ANSWER_BODY_BYTES), { stream: true });
}

/** What of a request must not be stored with its answer: the signature, whole and each `v1=` value. */
function secretsOf(headers: Record<string, string>): string[] {
  const signature = headers[SIGNATURE_HEADER];
  if (signature === undefined) return [];
  const values = signature.split(',').filter((part) => part.startsWith('v1='));
  return [signature, ...values.map((part) => part.slice('v1='.length))];
}

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
      let contentType: string | null = null;
      const answer: Buffer[] = [];
      let read = 0;
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
          responseContentType: contentType,
          responseBody: statusCode === null ? null : answerText(Buffer.concat(answer), secretsOf(headers)),
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
            contentType = response.headers['content-type'] ?? null;
            response.on('data', (chunk: Buffer) => {
              if (read >= ANSWER_READ_BYTES) return;
              const wanted = ANSWER_READ_BYTES - read;
              // A copy of the part kept, so the rest of a large chunk is not held on to.
              answer.push(chunk.length <= wanted ? chunk : Buffer.from(chunk.subarray(0, wanted)));
              read += Math.min(chunk.length, wanted);
              if (read >= ANSWER_READ_BYTES) response.destroy();
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
