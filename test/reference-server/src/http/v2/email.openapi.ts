// What the OpenAPI document says about the routes of `email.ts`: one entry per route, beside it.
import {
  EmailLabels,
  EmailThread,
  GetThreadQuery,
  Mailbox,
  SearchThreadsQuery,
} from '@threadwork/shared/schemas';
import { id, MAILBOX, type RouteEntry } from '../openapi/entry.ts';

export const EMAIL_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/v2/mailbox',
    operationId: 'getMailbox',
    tag: 'Mailbox',
    summary: 'The state of the caller’s mailbox',
    description: 'A key reaches only its owner’s own mailbox. Answers even when the mailbox is not usable.',
    auth: 'v2',
    scopes: ['email.metadata.read'],
    data: Mailbox,
  },
  {
    method: 'GET',
    path: '/v2/email-threads',
    operationId: 'searchThreads',
    tag: 'Mailbox',
    summary: 'Search the mailbox (Gmail search syntax)',
    description:
      '`q` takes words, quoted phrases, `from:`, `to:`, `subject:`, `label:`, `in:`, `is:unread`, `is:read`, ' +
      '`is:starred`, `has:attachment`, `after:`/`before:`, `newer_than:`/`older_than:`, `-` negation and ' +
      '`OR`. Results leave out `linked_tasks`.',
    auth: 'v2',
    scopes: ['email.metadata.read'],
    query: SearchThreadsQuery,
    page: EmailThread,
    errors: MAILBOX,
  },
  {
    method: 'GET',
    path: '/v2/email-threads/{id}',
    operationId: 'getThread',
    tag: 'Mailbox',
    summary: 'Get a thread',
    description:
      '`include=messages` adds the messages with their bodies and also needs the scope email.body.read.',
    auth: 'v2',
    scopes: ['email.metadata.read'],
    pathParams: id.thread,
    query: GetThreadQuery,
    data: EmailThread,
    errors: MAILBOX,
  },
  {
    method: 'GET',
    path: '/v2/email-labels',
    operationId: 'listLabels',
    tag: 'Mailbox',
    summary: 'List the mailbox’s labels',
    auth: 'v2',
    scopes: ['email.metadata.read'],
    data: EmailLabels,
    errors: MAILBOX,
  },
];
