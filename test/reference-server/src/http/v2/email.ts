// v2 mailbox reads: mailbox state, Gmail search, one thread, labels. A key reaches only its owner's own
// mailbox; every route but GET /mailbox answers 409 while the mailbox is not usable.
import { emailLabels, emailThreads, mailbox } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { getThread, listLabels, mailboxState, searchThreads } from '../../domain/mailbox/index.ts';
import { route } from '../route.ts';

export async function emailRoutes(app: FastifyInstance): Promise<void> {
  route(app, mailbox.get, ({ ctx, userId }) => mailboxState(ctx.db, userId));

  route(app, emailThreads.search, ({ ctx, userId, query: { q, ...page } }) =>
    searchThreads(ctx.db, userId, q, page, ctx.now()),
  );

  route(app, emailThreads.get, ({ ctx, userId, params, query }) =>
    getThread(ctx.db, userId, params.id, { messages: query.include === 'messages' }, ctx.now()),
  );

  route(app, emailLabels.list, ({ ctx, userId }) => listLabels(ctx.db, userId, ctx.now()));
}
