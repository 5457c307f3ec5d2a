// v2 mailbox writes on threads and new mail: read state, labels, snooze, reply, send. Each runs in
// one transaction, after the mailbox is known to be usable (409 otherwise), so nothing is half-written.
import {
  LabelsRequest,
  ReadStateRequest,
  ReplyRequest,
  SendEmailRequest,
  SnoozeRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { replyToThread, sendEmail } from '../../domain/mailbox/compose.ts';
import { changeMailbox } from '../../domain/mailbox/index.ts';
import { changeLabels, setReadState, snoozeThread } from '../../domain/mailbox/thread-state.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type WithId = { Params: { id: string } };

export async function emailWriteRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  app.post<WithId>(
    '/email-threads/:id/read-state',
    { preHandler: v2Guard('email.modify') },
    async (request, reply) => {
      const { read } = parseRequest(ReadStateRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const thread = await changeMailbox(ctx, userId, (tx) =>
        setReadState(tx, userId, request.params.id, read, ctx.now()),
      );
      return ok(reply, thread);
    },
  );

  app.post<WithId>(
    '/email-threads/:id/labels',
    { preHandler: v2Guard('email.modify') },
    async (request, reply) => {
      const change = parseRequest(LabelsRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const thread = await changeMailbox(ctx, userId, (tx) =>
        changeLabels(tx, userId, request.params.id, change, ctx.now()),
      );
      return ok(reply, thread);
    },
  );

  app.post<WithId>(
    '/email-threads/:id/snooze',
    { preHandler: v2Guard('email.modify') },
    async (request, reply) => {
      const { until } = parseRequest(SnoozeRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const thread = await changeMailbox(ctx, userId, (tx) =>
        snoozeThread(tx, userId, request.params.id, until, ctx.now()),
      );
      return ok(reply, thread);
    },
  );

  app.post<WithId>(
    '/email-threads/:id/reply',
    { preHandler: v2Guard('email.reply') },
    async (request, reply) => {
      const body = parseRequest(ReplyRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const sent = await changeMailbox(ctx, userId, (tx) =>
        replyToThread(tx, userId, request.params.id, body, ctx.now()),
      );
      return ok(reply, sent);
    },
  );

  app.post('/emails', { preHandler: v2Guard('email.send') }, async (request, reply) => {
    const body = parseRequest(SendEmailRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    return ok(reply, await changeMailbox(ctx, userId, (tx) => sendEmail(tx, userId, body, ctx.now())));
  });
}
