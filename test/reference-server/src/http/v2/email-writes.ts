// v2 mailbox writes on threads and new mail: read state, labels, snooze, reply, send. Each runs in
// one transaction, after the mailbox is known to be usable (409 otherwise), so nothing is half-written.
import { emails, emailThreads } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { replyToThread, sendEmail } from '../../domain/mailbox/compose.ts';
import { changeMailbox } from '../../domain/mailbox/index.ts';
import { changeLabels, setReadState, snoozeThread } from '../../domain/mailbox/thread-state.ts';
import { route } from '../route.ts';

export async function emailWriteRoutes(app: FastifyInstance): Promise<void> {
  route(app, emailThreads.setReadState, ({ ctx, userId, params, body }) =>
    changeMailbox(ctx, userId, (tx) => setReadState(tx, userId, params.id, body.read, ctx.now())),
  );

  route(app, emailThreads.changeLabels, ({ ctx, userId, params, body }) =>
    changeMailbox(ctx, userId, (tx) => changeLabels(tx, userId, params.id, body, ctx.now())),
  );

  route(app, emailThreads.snooze, ({ ctx, userId, params, body }) =>
    changeMailbox(ctx, userId, (tx) => snoozeThread(tx, userId, params.id, body.until, ctx.now())),
  );

  route(app, emailThreads.reply, ({ ctx, userId, params, body }) =>
    changeMailbox(ctx, userId, (tx) => replyToThread(tx, userId, params.id, body, ctx.now())),
  );

  route(app, emails.send, ({ ctx, userId, body }) =>
    changeMailbox(ctx, userId, (tx) => sendEmail(tx, userId, body, ctx.now())),
  );
}
