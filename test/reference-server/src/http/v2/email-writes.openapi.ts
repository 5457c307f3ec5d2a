// What the OpenAPI document says about the routes of `email-writes.ts`: one entry per route, beside it.
import {
  EmailThread,
  LabelsRequest,
  ReadStateRequest,
  ReplyRequest,
  SendEmailRequest,
  SentMessage,
  SnoozeRequest,
} from '@threadwork/shared/schemas';
import { id, MAILBOX, type RouteEntry } from '../openapi/entry.ts';

export const EMAIL_WRITES_ROUTES: readonly RouteEntry[] = [
  {
    method: 'POST',
    path: '/v2/email-threads/{id}/labels',
    operationId: 'changeLabels',
    tag: 'Mailbox',
    summary: 'Add and remove labels on a thread',
    description: 'An unknown label id is a 400 naming it. Answers the thread as it now is.',
    auth: 'v2',
    scopes: ['email.modify'],
    pathParams: id.thread,
    body: LabelsRequest,
    data: EmailThread,
    errors: MAILBOX,
  },
  {
    method: 'POST',
    path: '/v2/email-threads/{id}/read-state',
    operationId: 'setReadState',
    tag: 'Mailbox',
    summary: 'Mark a thread read or unread',
    auth: 'v2',
    scopes: ['email.modify'],
    pathParams: id.thread,
    body: ReadStateRequest,
    data: EmailThread,
    errors: MAILBOX,
  },
  {
    method: 'POST',
    path: '/v2/email-threads/{id}/snooze',
    operationId: 'snoozeThread',
    tag: 'Mailbox',
    summary: 'Snooze a thread until a time',
    description:
      '`until` must be in the future (server clock). The thread leaves the Inbox and comes back at `until`.',
    auth: 'v2',
    scopes: ['email.modify'],
    pathParams: id.thread,
    body: SnoozeRequest,
    data: EmailThread,
    errors: MAILBOX,
  },
  {
    method: 'POST',
    path: '/v2/email-threads/{id}/reply',
    operationId: 'replyToThread',
    tag: 'Drafts and sending',
    summary: 'Reply on a thread',
    description:
      'Recipients come from the thread and cannot be set: a body naming `to`, `cc` or `bcc` is a 400. ' +
      '`reply` (default) answers the sender of the newest message, or its Reply-To when it has one; ' +
      '`reply_all` keeps the To/Cc audience without the mailbox owner. The sent message joins the thread.',
    auth: 'v2',
    scopes: ['email.reply'],
    pathParams: id.thread,
    body: ReplyRequest,
    data: SentMessage,
    errors: MAILBOX,
  },
  {
    method: 'POST',
    path: '/v2/emails',
    operationId: 'sendEmail',
    tag: 'Drafts and sending',
    summary: 'Send a new message',
    description:
      'Needs email.send (opt-in). With `thread_id` the message is sent on that thread; it appears in SENT.',
    auth: 'v2',
    scopes: ['email.send'],
    body: SendEmailRequest,
    data: SentMessage,
    errors: MAILBOX,
  },
];
