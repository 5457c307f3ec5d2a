// v2 drafts: thread-scoped and new drafts, the list, send (opt-in email.send) and delete (opt-in
// drafts.delete). Drafts stay in the mailbox; there is no approval state.
import { CreateDraftRequest, CreateNewDraftRequest, PaginationQuery } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import {
  createDraft,
  createThreadDraft,
  deleteDraft,
  listDrafts,
  sendDraft,
} from '../../domain/mailbox/drafts.ts';
import { changeMailbox } from '../../domain/mailbox/index.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type WithId = { Params: { id: string } };

export async function draftRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  app.post<WithId>(
    '/email-threads/:id/drafts',
    { preHandler: v2Guard('drafts.write') },
    async (request, reply) => {
      const body = parseRequest(CreateDraftRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const draft = await changeMailbox(ctx, userId, (tx) =>
        createThreadDraft(tx, userId, request.params.id, body, ctx.now()),
      );
      return ok(reply, draft);
    },
  );

  app.post('/drafts', { preHandler: v2Guard('drafts.write') }, async (request, reply) => {
    const body = parseRequest(CreateNewDraftRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    return ok(reply, await changeMailbox(ctx, userId, (tx) => createDraft(tx, userId, body, ctx.now())));
  });

  app.get('/drafts', { preHandler: v2Guard('drafts.write') }, async (request, reply) => {
    const page = parseRequest(PaginationQuery, request.query, 'query');
    const result = await listDrafts(ctx.db, principalOf(request).userId, page, ctx.now());
    return ok(reply, result.items, result.pagination);
  });

  app.post<WithId>('/drafts/:id/send', { preHandler: v2Guard('email.send') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const sent = await changeMailbox(ctx, userId, (tx) =>
      sendDraft(tx, userId, request.params.id, ctx.now()),
    );
    return ok(reply, sent);
  });

  app.delete<WithId>('/drafts/:id', { preHandler: v2Guard('drafts.delete') }, async (request, reply) => {
    const userId = principalOf(request).userId;
    const deleted = await changeMailbox(ctx, userId, (tx) =>
      deleteDraft(tx, userId, request.params.id, ctx.now()),
    );
    return ok(reply, deleted);
  });
}
