// v2 mailbox reads: mailbox state, Gmail search, one thread, labels. A key reaches only its owner's own
// mailbox; every route but GET /mailbox answers 409 while the mailbox is not usable.
import { GetThreadQuery, SearchThreadsQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { getThread, listLabels, mailboxState, searchThreads } from '../../domain/mailbox/index.ts';
import { requireScope } from '../auth.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

const requireBodyScope = requireScope('email.body.read');

export async function emailRoutes(app: FastifyInstance): Promise<void> {
  app.get('/mailbox', { preHandler: v2Guard('email.metadata.read') }, async (request, reply) =>
    ok(reply, await mailboxState(app.ctx.db, principalOf(request).userId)),
  );

  app.get('/email-threads', { preHandler: v2Guard('email.metadata.read') }, async (request, reply) => {
    const { q, ...page } = parseRequest(SearchThreadsQuery, request.query, 'query');
    const result = await searchThreads(app.ctx.db, principalOf(request).userId, q, page, app.ctx.now());
    return ok(reply, result.items, result.pagination);
  });

  app.get<{ Params: { id: string } }>(
    '/email-threads/:id',
    { preHandler: v2Guard('email.metadata.read') },
    async (request, reply) => {
      const { include } = parseRequest(GetThreadQuery, request.query, 'query');
      // Bodies need their own scope; metadata alone is enough without include.
      if (include === 'messages') await requireBodyScope.call(app, request, reply);
      const thread = await getThread(
        app.ctx.db,
        principalOf(request).userId,
        request.params.id,
        {
          messages: include === 'messages',
        },
        app.ctx.now(),
      );
      return ok(reply, thread);
    },
  );

  app.get('/email-labels', { preHandler: v2Guard('email.metadata.read') }, async (request, reply) =>
    ok(reply, await listLabels(app.ctx.db, principalOf(request).userId, app.ctx.now())),
  );
}
