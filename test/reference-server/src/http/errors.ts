// One error shape for everything, Fastify's own failures and Node's included:
// `{ error: { code, message, request_id, details? } }`, with `x-request-id` on every answer.
// The codes of the errors raised before any route runs are listed in docs/errors.md.
import { type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@threadwork/shared/schemas';
import type {
  FastifyError,
  FastifyHttpOptions,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { ZodError } from 'zod';
import { formatPath, ServiceError } from '../domain/errors.ts';
import { newRequestId } from '../domain/ids.ts';
import { errorEnvelope } from './envelope.ts';
import { StoredAnswer } from './idempotency.ts';
import { validationDetails } from './validate.ts';

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
): FastifyReply {
  return reply.code(status).send(errorEnvelope(reply.request.id, code, message, details));
}

/** Fastify's framework errors, by their code. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'request bodies must be sent as application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'request body is larger than 1 MiB',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_request',
    message: 'the body does not match its Content-Length',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'request body is not valid JSON',
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'invalid_request',
    message: 'the path is not valid percent-encoding',
  },
  // Unreachable while MAX_PARAM_LENGTH exceeds the header limit; an id no route could hold is unknown.
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, code: 'not_found', message: 'no such resource' },
};

/**
 * Path parameters may be as long as the request line allows (Node's 16 KiB header limit answers 431
 * before this): an unknown id is a 404 from its route, whatever its length.
 */
const MAX_PARAM_LENGTH = 32 * 1024;

/** Errors found by Fastify's router before any hook runs (bad percent-encoding, over-long parameter). */
function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const known = FRAMEWORK_ERRORS[error.code];
  if (known) sendError(reply, known.status, known.code, known.message ?? error.message);
  else sendError(reply, 400, 'invalid_request', error.message);
}

/** The status of each of Node's client errors that is not a plain 400, by its code. */
const CLIENT_ERROR_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: 'the request is not well-formed HTTP/1.1',
  408: 'the request was not received in time',
  431: 'the request line and headers are larger than 16 KiB',
};

/** An `invalid_request` answer made outside Fastify (no request object): its headers and body. */
function invalidRequestAnswer(message: string): { headers: Record<string, string>; body: string } {
  const requestId = newRequestId();
  const body = JSON.stringify({ error: { code: 'invalid_request', message, request_id: requestId } });
  const headers = {
    'x-request-id': requestId,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  return { headers, body };
}

/**
 * Node's parser refused the request (malformed request line or headers, headers over the size limit,
 * a timeout) before Fastify saw it: answer in the envelope, then close, as Node itself would.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // The answer in progress on this connection, if any. When it is this request's (its body was being
  // read) and nothing of it has been sent, this answer replaces it. When it is an earlier, complete
  // request's, an answer written now would be taken for that one's: close without answering, as Node does.
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  const answerable = !pending || (!pending.headersSent && !pending.req.complete);
  if (socket.writable && answerable) {
    const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
    const { headers, body } = invalidRequestAnswer(CLIENT_ERROR_MESSAGES[status]!);
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`);
  }
  socket.destroy();
}

/** Fastify options that route every pre-route failure into the error envelope. */
export const ERROR_SERVER_OPTIONS = {
  frameworkErrors: onFrameworkError,
  clientErrorHandler: onClientError,
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  // Node answers a bare 400 to an HTTP/1.1 request without Host; the onRequest hook answers it instead.
  http: { requireHostHeader: false },
  // Fastify's own answer to a request arriving while the server drains is a bare 503; the onRequest hook
  // answers it in the envelope instead.
  return503OnClosing: false,
} satisfies FastifyHttpOptions<Server>;

/** Seconds a client is asked to wait before retrying a request refused while the server drains. */
export const DRAINING_RETRY_AFTER_SECONDS = 1;

/**
 * The path, as `formatPath` writes it, of the first string (or key) in `value` holding the NUL
 * character, or null. No text the service stores may hold one (PostgreSQL's text cannot), so it is
 * refused at the edge, the same on every database.
 */
export function findNul(value: unknown, path: PropertyKey[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? formatPath(path) || 'body' : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    if (typeof key === 'string' && key.includes('\u0000')) return formatPath([...path, key]);
    const found = findNul(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

export function installErrorHandling(app: FastifyInstance): void {
  // Set as the server starts to close (SIGTERM): requests in flight finish, new ones are refused.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  // An answer finished while draining closes its connection, so that closing never waits on keep-alive.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (draining) {
      reply.header('retry-after', String(DRAINING_RETRY_AFTER_SECONDS)).header('connection', 'close');
      sendError(reply, 503, 'service_unavailable', 'the server is shutting down; retry shortly');
      return;
    }
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      sendError(reply, 400, 'invalid_request', 'an HTTP/1.1 request must carry a Host header');
      return;
    }
    if (request.url.includes('%00')) {
      // No id holds a NUL: a path naming one names nothing.
      const params = request.params as Record<string, string> | undefined;
      if (params && Object.values(params).some((value) => value.includes('\u0000'))) {
        sendError(reply, 404, 'not_found', 'no such resource');
        return;
      }
      const path = findNul(request.query);
      if (path !== null) {
        sendError(reply, 400, 'validation_error', `${path}: ${NUL_MESSAGE}`, [
          { path, message: NUL_MESSAGE },
        ]);
        return;
      }
    }
    done();
  });

  // `Expect: 100-continue` is met (Node answers 100 and the request proceeds); any other expectation
  // cannot be, and is answered 417 in the envelope rather than by Node's bare 417.
  app.server.on('checkExpectation', (request, response) => {
    const { headers, body } = invalidRequestAnswer(
      `the expectation "${String(request.headers.expect)}" cannot be met; only 100-continue is supported`,
    );
    response.writeHead(417, headers).end(body);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`),
  );

  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    // An Idempotency-Key found answered as the write transaction claimed it (PostgreSQL).
    if (error instanceof StoredAnswer) return error.send(request, reply);
    if (error instanceof ServiceError) {
      reply.headers(error.headers);
      return sendError(reply, error.status, error.code, error.message, error.details);
    }
    if (error instanceof ZodError) {
      return sendError(reply, 400, 'validation_error', 'invalid request', validationDetails(error));
    }
    const framework =
      'code' in error && typeof error.code === 'string' ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (framework) {
      return sendError(reply, framework.status, framework.code, framework.message ?? error.message);
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(
        reply,
        status === 404 ? 404 : 400,
        status === 404 ? 'not_found' : 'validation_error',
        error.message,
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'internal error');
  });
}
