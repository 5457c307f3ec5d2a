import type { FastifyReply } from 'fastify';
import type { Pagination } from '../domain/pagination.ts';

/** The v2 success envelope: `{ data, meta: { request_id, pagination? } }`, status 200. */
export function ok(reply: FastifyReply, data: unknown, pagination?: Pagination): FastifyReply {
  const meta = pagination ? { request_id: reply.request.id, pagination } : { request_id: reply.request.id };
  return reply.code(200).send({ data, meta });
}
