// Serves a declared operation (`@threadwork/shared/operations`): its route with its guard (authentication,
// scopes, Idempotency-Key), the scopes a sent field needs, its path, query and body read with the declared
// schemas, and the answer in the declared shape (v2 envelope, page, or v1's bare JSON). A route module
// holds only what each operation does: `route(app, tasks.get, ({ userId, params }) => getTask(…))`.
import type { Operation, PathParamName } from '@threadwork/shared/operations';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { insufficientScope } from '../domain/errors.ts';
import type { Page } from '../domain/pagination.ts';
import type { Principal } from '../domain/principal.ts';
import { authenticateV1, authenticateV2, requireScope } from './auth.ts';
import type { AppContext } from './context.ts';
import { ok } from './envelope.ts';
import { idempotency } from './idempotency.ts';
import { contextOf, principalOf } from './request-state.ts';
import { parseRequest } from './validate.ts';

type Parsed<O, Part extends 'query' | 'body'> = O extends { [P in Part]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** What a handler is given: the request read as declared, who is calling, and what to work with. */
export type Call<O extends Operation> = {
  /** The request's context: pass it to the domain for writes (it carries the request's deferred commit). */
  ctx: AppContext;
  params: Record<PathParamName<O['path']>, string>;
  query: Parsed<O, 'query'>;
  body: Parsed<O, 'body'>;
  request: FastifyRequest;
  reply: FastifyReply;
} & ([O['auth']] extends ['none'] ? unknown : { principal: Principal; userId: string });

/**
 * A schema's output as a handler may give it: every declared field, without the index signature of an
 * open object (which the domain's records, interfaces, do not have; the answer may carry more fields).
 */
type Known<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer E)[]
    ? Known<E>[]
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
      : T;

/** What a handler answers: a v2 `data`, a page of them, or v1's bare body. */
export type AnswerOf<O extends Operation> = O extends { page: infer T extends z.ZodType }
  ? Page<Known<z.output<T>>>
  : O extends { data: infer T extends z.ZodType }
    ? Known<z.output<T>>
    : O extends { bare: infer T extends z.ZodType }
      ? Known<z.output<T>>
      : undefined;

/** Does what the operation does and resolves to its answer; one that sends its answer itself returns the reply. */
export type Handler<O extends Operation> = (call: Call<O>) => Promise<AnswerOf<O> | FastifyReply>;

/** The pre-handler chain: authenticate → scopes → idempotency (writes only). */
function guardOf(operation: Operation): preHandlerAsyncHookHandler[] | undefined {
  if (operation.auth === 'none') return undefined;
  const chain = [operation.auth === 'v1' ? authenticateV1 : authenticateV2];
  if (operation.scopes.length > 0) chain.push(requireScope(...operation.scopes));
  if (operation.idempotent) chain.push(idempotency);
  return chain;
}

/** 403 when a field that needs a scope of its own is sent without it: checked before the request is read. */
function checkScopesWhenSent(operation: Operation, request: FastifyRequest): void {
  for (const { in: part, field, scope } of operation.scopesWhenSent ?? []) {
    const sent = part === 'body' ? request.body : request.query;
    const isSent =
      typeof sent === 'object' && sent !== null && (sent as Record<string, unknown>)[field] !== undefined;
    if (isSent && !principalOf(request).scopes.has(scope)) {
      throw insufficientScope([scope], `sending ${field} needs the scope ${scope}`);
    }
  }
}

function send(operation: Operation, reply: FastifyReply, answer: unknown): FastifyReply {
  if (operation.page) {
    const { items, pagination } = answer as Page<unknown>;
    return ok(reply, items, pagination);
  }
  if (operation.data) return ok(reply, answer);
  return operation.bare === null ? reply.code(200).send() : reply.code(200).send(answer);
}

/** Registers the operation's route (its full path, `/v2/tasks/{id}` as `/v2/tasks/:id`). */
export function route<O extends Operation>(app: FastifyInstance, operation: O, handler: Handler<O>): void {
  const { query, body, bodyOptional, auth } = operation;
  const preHandler = guardOf(operation);
  const checksSentFields = (operation.scopesWhenSent?.length ?? 0) > 0;
  app.route({
    method: operation.method,
    url: operation.path.replace(/\{(\w+)\}/g, ':$1'),
    ...(preHandler ? { preHandler } : {}),
    handler: async (request, reply) => {
      if (checksSentFields) checkScopesWhenSent(operation, request);
      const principal = auth === 'none' ? undefined : principalOf(request);
      const call = {
        ctx: contextOf(request),
        params: request.params,
        query: query ? parseRequest(query, request.query, 'query') : undefined,
        body:
          body && !(bodyOptional && request.body === undefined)
            ? parseRequest(body, request.body, 'body')
            : undefined,
        request,
        reply,
        principal,
        userId: principal?.userId,
      } as Call<O>;
      const answer = await handler(call);
      // A handler that sent its answer itself (a kept page, the document's text) leaves nothing to send.
      return reply.sent ? reply : send(operation, reply, answer);
    },
  });
}
