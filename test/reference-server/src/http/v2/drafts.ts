// v2 drafts: thread-scoped and new drafts, the list, send (opt-in email.send) and delete (opt-in
// drafts.delete). Drafts stay in the mailbox; there is no approval state.
import { drafts, emailThreads } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import {
  createDraft,
  createThreadDraft,
  deleteDraft,
  listDrafts,
  sendDraft,
} from '../../domain/mailbox/drafts.ts';
import { changeMailbox } from '../../domain/mailbox/index.ts';
import { route } from '../route.ts';

export async function draftRoutes(app: FastifyInstance): Promise<void> {
  route(app, emailThreads.createDraft, ({ ctx, userId, params, body }) =>
    changeMailbox(ctx, userId, (tx) => createThreadDraft(tx, userId, params.id, body, ctx.now())),
  );

  route(app, drafts.create, ({ ctx, userId, body }) =>
    changeMailbox(ctx, userId, (tx) => createDraft(tx, userId, body, ctx.now())),
  );

  route(app, drafts.list, ({ ctx, userId, query }) => listDrafts(ctx.db, userId, query, ctx.now()));

  route(app, drafts.send, ({ ctx, userId, params }) =>
    changeMailbox(ctx, userId, (tx) => sendDraft(tx, userId, params.id, ctx.now())),
  );

  route(app, drafts.delete, ({ ctx, userId, params }) =>
    changeMailbox(ctx, userId, (tx) => deleteDraft(tx, userId, params.id, ctx.now())),
  );
}
