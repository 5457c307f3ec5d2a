// The caller's own mailbox: its state, threads, labels, drafts, replies and new mail, and the AI analysis
// of a thread. A key reaches only its owner's mailbox; every operation but GET /mailbox answers 409 while
// the mailbox cannot be used.
import { Deleted, PaginationQuery } from '../../schemas/common.ts';
import { ThreadAnalysis } from '../../schemas/v2/analysis.ts';
import {
  CreateDraftRequest,
  CreateNewDraftRequest,
  Draft,
  EmailLabels,
  EmailThread,
  GetThreadQuery,
  LabelsRequest,
  Mailbox,
  ReadStateRequest,
  ReplyRequest,
  SearchThreadsQuery,
  SendEmailRequest,
  SentMessage,
  SnoozeRequest,
} from '../../schemas/v2/email.ts';
import { ID, MAILBOX, operation } from '../operation.ts';

export const mailbox = {
  get: operation({
    method: 'GET',
    path: '/v2/mailbox',
    operationId: 'getMailbox',
    tag: 'Mailbox',
    summary: 'The state of the caller’s mailbox',
    description: 'A key reaches only its owner’s own mailbox. Answers even when the mailbox is not usable.',
    scopes: ['email.metadata.read'],
    data: Mailbox,
  }),
};

export const emailThreads = {
  search: operation({
    method: 'GET',
    path: '/v2/email-threads',
    operationId: 'searchThreads',
    tag: 'Mailbox',
    summary: 'Search the mailbox (Gmail search syntax)',
    description:
      '`q` takes words, quoted phrases, `from:`, `to:`, `subject:`, `label:`, `in:`, `is:unread`, `is:read`, ' +
      '`is:starred`, `has:attachment`, `after:`/`before:`, `newer_than:`/`older_than:`, `-` negation and ' +
      '`OR`. Results leave out `linked_tasks`.',
    scopes: ['email.metadata.read'],
    query: SearchThreadsQuery,
    page: EmailThread,
    errors: MAILBOX,
  }),
  get: operation({
    method: 'GET',
    path: '/v2/email-threads/{id}',
    operationId: 'getThread',
    tag: 'Mailbox',
    summary: 'Get a thread',
    description: '`include=messages` adds the messages with their bodies.',
    scopes: ['email.metadata.read'],
    scopesWhenSent: [{ in: 'query', field: 'include', scope: 'email.body.read' }],
    pathParams: ID.thread,
    query: GetThreadQuery,
    data: EmailThread,
    errors: MAILBOX,
  }),
  changeLabels: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/labels',
    operationId: 'changeLabels',
    tag: 'Mailbox',
    summary: 'Add and remove labels on a thread',
    description: 'An unknown label id is a 400 naming it. Answers the thread as it now is.',
    scopes: ['email.modify'],
    pathParams: ID.thread,
    body: LabelsRequest,
    data: EmailThread,
    errors: MAILBOX,
  }),
  setReadState: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/read-state',
    operationId: 'setReadState',
    tag: 'Mailbox',
    summary: 'Mark a thread read or unread',
    scopes: ['email.modify'],
    pathParams: ID.thread,
    body: ReadStateRequest,
    data: EmailThread,
    errors: MAILBOX,
  }),
  snooze: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/snooze',
    operationId: 'snoozeThread',
    tag: 'Mailbox',
    summary: 'Snooze a thread until a time',
    description:
      '`until` must be in the future (server clock). The thread leaves the Inbox and comes back at `until`.',
    scopes: ['email.modify'],
    pathParams: ID.thread,
    body: SnoozeRequest,
    data: EmailThread,
    errors: MAILBOX,
  }),
  reply: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/reply',
    operationId: 'replyToThread',
    tag: 'Drafts and sending',
    summary: 'Reply on a thread',
    description:
      'Recipients come from the thread and cannot be set: a body naming `to`, `cc` or `bcc` is a 400. ' +
      '`reply` (default) answers the sender of the newest message, or its Reply-To when it has one; ' +
      '`reply_all` keeps the To/Cc audience without the mailbox owner. The sent message joins the thread.',
    scopes: ['email.reply'],
    pathParams: ID.thread,
    body: ReplyRequest,
    data: SentMessage,
    errors: MAILBOX,
  }),
  createDraft: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/drafts',
    operationId: 'createThreadDraft',
    tag: 'Drafts and sending',
    summary: 'Draft a message on a thread',
    description: '`subject` defaults to `Re: <thread subject>`, `is_html` to true.',
    scopes: ['drafts.write'],
    pathParams: ID.thread,
    body: CreateDraftRequest,
    data: Draft,
    errors: MAILBOX,
  }),
  analyze: operation({
    method: 'POST',
    path: '/v2/email-threads/{id}/analysis',
    operationId: 'analyzeThread',
    tag: 'AI analysis',
    summary: 'Classify a thread now',
    description:
      'A deterministic classifier (no network) rates urgency, sentiment and status from the thread’s newest ' +
      'message; the result is cached until a newer message arrives.',
    scopes: ['ai.write'],
    pathParams: ID.thread,
    data: ThreadAnalysis,
    errors: MAILBOX,
  }),
  getAnalysis: operation({
    method: 'GET',
    path: '/v2/email-threads/{id}/analysis',
    operationId: 'getThreadAnalysis',
    tag: 'AI analysis',
    summary: 'The cached analysis of a thread',
    description: 'A thread never classified, or classified before its newest message, is a 404.',
    scopes: ['ai.read'],
    pathParams: ID.thread,
    data: ThreadAnalysis,
    errors: MAILBOX,
  }),
};

export const emailLabels = {
  list: operation({
    method: 'GET',
    path: '/v2/email-labels',
    operationId: 'listLabels',
    tag: 'Mailbox',
    summary: 'List the mailbox’s labels',
    scopes: ['email.metadata.read'],
    data: EmailLabels,
    errors: MAILBOX,
  }),
};

export const emails = {
  send: operation({
    method: 'POST',
    path: '/v2/emails',
    operationId: 'sendEmail',
    tag: 'Drafts and sending',
    summary: 'Send a new message',
    description:
      'Needs email.send (opt-in). With `thread_id` the message is sent on that thread; it appears in SENT.',
    scopes: ['email.send'],
    body: SendEmailRequest,
    data: SentMessage,
    errors: MAILBOX,
  }),
};

// Drafts stay in the mailbox; there is no approval state.
export const drafts = {
  create: operation({
    method: 'POST',
    path: '/v2/drafts',
    operationId: 'createDraft',
    tag: 'Drafts and sending',
    summary: 'Draft a new message',
    scopes: ['drafts.write'],
    body: CreateNewDraftRequest,
    data: Draft,
    errors: MAILBOX,
  }),
  list: operation({
    method: 'GET',
    path: '/v2/drafts',
    operationId: 'listDrafts',
    tag: 'Drafts and sending',
    summary: 'List the mailbox’s drafts',
    scopes: ['drafts.write'],
    query: PaginationQuery,
    page: Draft,
    errors: MAILBOX,
  }),
  send: operation({
    method: 'POST',
    path: '/v2/drafts/{id}/send',
    operationId: 'sendDraft',
    tag: 'Drafts and sending',
    summary: 'Send a draft',
    description: 'Needs email.send, an opt-in scope that no key gets unless it is asked for by name.',
    scopes: ['email.send'],
    pathParams: ID.draft,
    data: SentMessage,
    errors: MAILBOX,
  }),
  delete: operation({
    method: 'DELETE',
    path: '/v2/drafts/{id}',
    operationId: 'deleteDraft',
    tag: 'Drafts and sending',
    summary: 'Delete a draft',
    description: 'Needs drafts.delete, an opt-in scope that no key gets unless it is asked for by name.',
    scopes: ['drafts.delete'],
    pathParams: ID.draft,
    data: Deleted,
    errors: MAILBOX,
  }),
};
