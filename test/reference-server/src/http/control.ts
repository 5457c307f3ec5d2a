// `/_control`: test-only endpoints that act as the outside world (here: mail arriving at a mailbox).
// Registered only with --test-control; without it every path here is an ordinary 404. No auth: the
// flag is for tests and local runs on loopback.
import { DateTime, HexId, NonEmptyString } from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { receiveInboundMessage } from '../domain/mailbox/index.ts';
import { runInTransaction } from '../domain/transaction.ts';
import { parseRequest } from './validate.ts';

// Every EmailMessage field but `id` (the server assigns it), and `reply_to`: what arriving mail carries.
// `snippet` defaults to the body's first characters; `unread: true` is the UNREAD label, and the two
// must agree when both are sent. Strict, so a misspelt field is reported rather than ignored.
// `attachment_count` lets tests exercise has:attachment.
const Address = z.strictObject({
  email: z.email({ message: 'must be an email address' }),
  name: z.string().nullable().default(null),
});

const InboundMessage = z
  .strictObject({
    from: Address,
    to: z.array(Address).optional(),
    cc: z.array(Address).optional(),
    subject: z.string().nullable().optional(),
    date: DateTime.nullable().optional(),
    snippet: z.string().nullable().optional(),
    unread: z.boolean().optional(),
    labels: z.array(NonEmptyString).optional(),
    body_text: z.string().nullable().optional(),
    body_html: z.string().nullable().optional(),
    reply_to: Address.nullable().optional(),
    attachment_count: z.number().int().min(0).optional(),
  })
  .superRefine((message, ctx) => {
    if (message.unread === undefined || message.labels === undefined) return;
    if (message.unread !== message.labels.includes('UNREAD')) {
      ctx.addIssue({
        code: 'custom',
        path: ['unread'],
        message: message.unread
          ? 'unread is true but labels has no UNREAD; add UNREAD or leave one of them out'
          : 'unread is false but labels has UNREAD; remove UNREAD or leave one of them out',
      });
    }
  })
  .transform(({ unread, ...message }) => {
    // Without labels, arriving mail lands in the Inbox, unread unless told otherwise.
    if (message.labels !== undefined || unread === undefined) return message;
    return { ...message, labels: unread ? ['INBOX', 'UNREAD'] : ['INBOX'] };
  });

export const InboundMessageRequest = z.strictObject({
  mailbox: z.email({ message: 'must be an email address' }),
  thread_id: HexId.optional(),
  message: InboundMessage,
});

export async function controlRoutes(app: FastifyInstance): Promise<void> {
  if (!app.ctx.options.testControl) return;

  // Answers the bare `{ thread_id, message_id }` (docs/reference-server.md), not the v2 envelope.
  app.post('/_control/inbound-message', async (request, reply) => {
    const input = parseRequest(InboundMessageRequest, request.body, 'body');
    const created = await runInTransaction(app.ctx, (tx) => receiveInboundMessage(tx, input, app.ctx.now()));
    return reply.code(200).send(created);
  });
}
