// Holds every answer of every in-process reference server to the OpenAPI document. Loaded as a Vitest setup
// file: it attaches to each Fastify app as it is created (Fastify's `fastify.initialization` diagnostics
// channel, so the server's code has no test hook), copies each request/response pair as the answer leaves,
// has it checked by the run's contract checker (contract-checker.ts, served by contract-setup.ts) without
// holding the answer back, and fails the running test on a mismatch.
import { subscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach, inject } from 'vitest';
import type { Exchange } from './contract-checker.ts';

/** What the run's checker finds wrong with one exchange. */
export async function problemsOf(exchange: Exchange): Promise<string[]> {
  const response = await fetch(inject('contractCheckUrl'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(exchange),
  });
  return (await response.json()) as string[];
}

function headersOf(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
  }
  return out;
}

function bodyOf(payload: unknown): unknown {
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : undefined;
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const mismatches: string[] = [];
/** Checks still running: the answer goes out at once, and the test's end waits for its check. */
const pending = new Set<Promise<void>>();

function record(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const exchange: Exchange = {
    method: request.method,
    url: request.url,
    requestHeaders: headersOf(request.headers),
    requestBody: request.body,
    status: reply.statusCode,
    responseHeaders: headersOf(reply.getHeaders()),
    responseBody: bodyOf(payload),
  };
  const checking = problemsOf(exchange).then(
    (problems) => {
      mismatches.push(...problems);
    },
    (error: Error) => {
      mismatches.push(`${exchange.method} ${exchange.url}: the contract check failed: ${error.stack}`);
    },
  );
  pending.add(checking);
  void checking.finally(() => pending.delete(checking));
}

subscribe('fastify.initialization', (message) => {
  const app = (message as { fastify: FastifyInstance }).fastify;
  app.addHook('onSend', (request, reply, payload, done) => {
    // Only the reference server (its apps carry the service context); receivers in tests are not it.
    if ('ctx' in request.server) record(request, reply, payload);
    done(null, payload);
  });
});

async function failOnMismatches(): Promise<void> {
  await Promise.all(pending);
  if (mismatches.length === 0) return;
  const found = mismatches.splice(0);
  throw new Error(`the server and its OpenAPI document disagree:\n- ${found.join('\n- ')}`);
}

afterEach(failOnMismatches);
afterAll(failOnMismatches);
