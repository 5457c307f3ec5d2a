// Checks one request/response pair against the OpenAPI document with Stoplight Prism's router and
// validators (an implementation independent of ours and of zod). Runs once per test run, in Vitest's main
// process (contract-setup.ts); the test files send it their exchanges (contract.ts).
import { createRequire } from 'node:module';
import type { IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import { buildDocument, UNDOCUMENTED_PREFIXES } from '../../src/http/openapi/document.ts';

/** One request and its answer, copied as the answer leaves the server. */
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

/** An operation of the document as Prism reads it; only Prism looks inside. */
type PrismOperation = object;
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
type Diagnostics = Either<{ message: string }[], unknown>;

interface Prism {
  route(input: { resources: PrismOperation[]; input: IHttpRequest }): Either<Error, PrismOperation>;
  validateInput(input: { resource: PrismOperation; element: IHttpRequest }): Diagnostics;
  validateOutput(input: { resource: PrismOperation; element: IHttpResponse }): Diagnostics;
  validateSecurity(input: { resource: PrismOperation; element: IHttpRequest }): Diagnostics;
}

const messagesOf = (result: Diagnostics) =>
  result._tag === 'Left' ? result.left.map((diagnostic) => diagnostic.message) : [];

/**
 * A checker of exchanges against the document as the server serves it. It reports:
 * - an answer (status, headers, body) the document does not describe;
 * - a request the document rejects (parameters, body, credentials) that the server accepted (2xx);
 * - a 2xx from a path the document does not have.
 * A request the document allows may still be refused by the server (an id that does not exist, a rule
 * JSON Schema cannot say): that is not a mismatch.
 */
export async function createContractChecker(): Promise<(exchange: Exchange) => string[]> {
  // Prism's router and validators, not its mocker: much less to load.
  const require = createRequire(import.meta.url);
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http/dist/utils/operations.js') as {
    getHttpOperationsFromSpec(document: object): Promise<PrismOperation[]>;
  };
  const route = (require('@stoplight/prism-http/dist/router/index.js') as { default: Prism['route'] })
    .default;
  const { validateInput, validateOutput, validateSecurity } =
    require('@stoplight/prism-http/dist/validator/index.js') as Omit<Prism, 'route'>;
  const operations = await getHttpOperationsFromSpec(buildDocument());

  return (exchange) => {
    // Only origin-form targets (`/path?query`) are API requests; `*` and the like are HTTP's business.
    if (!exchange.url.startsWith('/')) return [];
    const url = new URL(exchange.url, 'http://server');
    if (UNDOCUMENTED_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return [];
    if (exchange.method === 'HEAD' || exchange.method === 'OPTIONS') return [];
    // With --console, `/` answers a browser with the console's page, or its guard's 403 (docs/console.md):
    // the console's answers, not the API's.
    const consolePage =
      exchange.responseHeaders['content-type']?.startsWith('text/html') || exchange.status === 403;
    if (url.pathname === '/' && exchange.requestHeaders['accept']?.includes('text/html') && consolePage)
      return [];
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
  };
}
