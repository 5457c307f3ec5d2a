// Holds every answer of every in-process reference server to the OpenAPI document, with Stoplight Prism's
// validator (an implementation independent of ours and of zod). Loaded as a Vitest setup file: it attaches
// to each Fastify app as it is created (Fastify's `fastify.initialization` diagnostics channel), checks
// each request/response pair as the answer leaves, and fails the running test on a mismatch:
// - an answer (status, headers, body) the document does not describe;
// - a request the document rejects (parameters, body, credentials) that the server accepted (2xx);
// - a 2xx from a path the document does not have.
// A request the document allows may still be refused by the server (an id that does not exist, a rule
// JSON Schema cannot say): that is not a mismatch.
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import type { IHttpRequest, IHttpResponse } from '@stoplight/prism-http';

/** An operation of the document as Prism reads it; only Prism looks inside. */
type PrismOperation = object;

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach, inject } from 'vitest';
import { UNDOCUMENTED_PREFIXES } from '../../src/http/openapi/catalogue.ts';

interface Diagnostic {
  message: string;
}
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };

interface Prism {
  route(input: { resources: PrismOperation[]; input: IHttpRequest }): Either<Error, PrismOperation>;
  validateInput(input: { resource: PrismOperation; element: IHttpRequest }): Either<Diagnostic[], unknown>;
  validateOutput(input: { resource: PrismOperation; element: IHttpResponse }): Either<Diagnostic[], unknown>;
  validateSecurity(input: { resource: PrismOperation; element: IHttpRequest }): Either<Diagnostic[], unknown>;
  operations: PrismOperation[];
}

let prism: Promise<Prism> | undefined;

/** Prism's router and validators (not its mocker: much less to load), once per test file. */
function loadPrism(): Promise<Prism> {
  prism ??= (async () => {
    const require = createRequire(import.meta.url);
    const router = require('@stoplight/prism-http/dist/router/index.js') as { default: Prism['route'] };
    const validator = require('@stoplight/prism-http/dist/validator/index.js') as Pick<
      Prism,
      'validateInput' | 'validateOutput' | 'validateSecurity'
    >;
    return {
      route: router.default,
      validateInput: validator.validateInput,
      validateOutput: validator.validateOutput,
      validateSecurity: validator.validateSecurity,
      // Built from the document once per run, by contract-setup.ts.
      operations: JSON.parse(inject('contractOperations')) as PrismOperation[],
    };
  })();
  return prism;
}

const mismatches: string[] = [];

function headersOf(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
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

const messagesOf = (result: Either<Diagnostic[], unknown>) =>
  result._tag === 'Left' ? result.left.map((diagnostic) => diagnostic.message) : [];

/** One request and its answer, copied as the answer leaves. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
}

/** What the document and this exchange disagree on (nothing: an empty list). */
export async function problemsOf(exchange: Exchange): Promise<string[]> {
  const url = new URL(exchange.url, 'http://server');
  if (UNDOCUMENTED_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return [];
  if (exchange.method === 'HEAD' || exchange.method === 'OPTIONS') return [];
  const { route, validateInput, validateOutput, validateSecurity, operations } = await loadPrism();
  // Prism reads a repeated parameter as an array, a single one as a string.
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  const input: IHttpRequest = {
    method: exchange.method.toLowerCase() as IHttpRequest['method'],
    url: { path: url.pathname, query },
    headers: exchange.requestHeaders,
    body: exchange.requestBody,
  };
  const { status } = exchange;
  const where = `${exchange.method} ${exchange.url} → ${status}`;
  const routed = route({ resources: operations, input });
  if (routed._tag === 'Left') {
    return status < 400 ? [`${where}: answered, but the document has no such operation`] : [];
  }
  const operation = routed.right;
  const output: IHttpResponse = {
    statusCode: status,
    headers: exchange.responseHeaders,
    body: exchange.responseBody,
  };
  const problems: string[] = [];
  const answerProblems = messagesOf(validateOutput({ resource: operation, element: output }));
  if (answerProblems.length > 0) {
    problems.push(`${where}: the answer breaks the document: ${answerProblems.join('; ')}`);
  }
  if (status < 300) {
    const requestProblems = [
      ...messagesOf(validateInput({ resource: operation, element: input })),
      ...messagesOf(validateSecurity({ resource: operation, element: input })),
    ];
    if (requestProblems.length > 0) {
      problems.push(`${where}: accepted a request the document rejects: ${requestProblems.join('; ')}`);
    }
  }
  return problems;
}

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
