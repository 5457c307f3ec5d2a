// What the OpenAPI document says about the routes of `analysis.ts`: one entry per route, beside it.
import { ThreadAnalysis } from '@threadwork/shared/schemas';
import { id, MAILBOX, type RouteEntry } from '../openapi/entry.ts';

export const ANALYSIS_ROUTES: readonly RouteEntry[] = [
  {
    method: 'POST',
    path: '/v2/email-threads/{id}/analysis',
    operationId: 'analyzeThread',
    tag: 'AI analysis',
    summary: 'Classify a thread now',
    description:
      'A deterministic classifier (no network) rates urgency, sentiment and status from the thread’s newest ' +
      'message; the result is cached until a newer message arrives.',
    auth: 'v2',
    scopes: ['ai.write'],
    pathParams: id.thread,
    data: ThreadAnalysis,
    errors: MAILBOX,
  },
  {
    method: 'GET',
    path: '/v2/email-threads/{id}/analysis',
    operationId: 'getThreadAnalysis',
    tag: 'AI analysis',
    summary: 'The cached analysis of a thread',
    description: 'A thread never classified, or classified before its newest message, is a 404.',
    auth: 'v2',
    scopes: ['ai.read'],
    pathParams: id.thread,
    data: ThreadAnalysis,
    errors: MAILBOX,
  },
];
