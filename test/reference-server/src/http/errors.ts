// One error shape for everything, Fastify's own failures included:
// `{ error: { code, message, request_id, details? } }`, with `x-request-id` on every answer.
import type { ErrorCode } from '@threadwork/shared/schemas';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ServiceError } from '../domain/errors.ts';
import { validationDetails } from './validate.ts';

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
): FastifyReply {
  const error: Record<string, unknown> = { code, message, request_id: reply.request.id };
  if (details !== undefined) error['details'] = details;
  return reply.code(status).send({ error });
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
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'validation_error' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'request body is not valid JSON',
  },
  FST_ERR_BAD_URL: { status: 404, code: 'not_found' },
};

export function installErrorHandling(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `no route for ${request.method} ${request.url.split('?')[0]}`),
  );

  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
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
