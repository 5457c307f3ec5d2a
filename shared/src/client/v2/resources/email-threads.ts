import type { z } from 'zod';
import { envelope } from '../../../schemas/common.ts';
import { ThreadAnalysis } from '../../../schemas/v2/analysis.ts';
import {
  CreateDraftRequest,
  Draft,
  EmailThread,
  GetThreadQuery,
  LabelsRequest,
  ReadStateRequest,
  ReplyRequest,
  SearchThreadsQuery,
  SentMessage,
  SnoozeRequest,
} from '../../../schemas/v2/email.ts';
import type { PagePromise } from '../../pagination.ts';
import {
  type ListParams,
  parseQuery,
  parseRequest,
  pathId,
  type RequestOptions,
  withQuery,
} from '../../request.ts';
import { Resource } from './resource.ts';

const EmailThreadEnvelope = envelope(EmailThread);
const EmailThreadListEnvelope = envelope(EmailThread.array());
const DraftEnvelope = envelope(Draft);
const SentMessageEnvelope = envelope(SentMessage);
const ThreadAnalysisEnvelope = envelope(ThreadAnalysis);

function threadPath(id: string, action = ''): string {
  return `/email-threads/${pathId(id, 'thread id')}${action}`;
}

export class EmailThreadsResource extends Resource {
  /** GET /email-threads?q=: mailbox search syntax (`from:`, `is:unread`, …); results omit linked_tasks. */
  search(params: ListParams<SearchThreadsQuery>, options?: RequestOptions): PagePromise<EmailThread> {
    return this.transport.list(
      () => ({ path: '/email-threads', query: parseQuery(SearchThreadsQuery, params) }),
      EmailThreadListEnvelope,
      options,
    );
  }

  /** GET /email-threads/{id}; `{ include: 'messages' }` adds the messages with bodies (email.body.read). */
  async get(
    id: string,
    query?: z.input<typeof GetThreadQuery>,
    options?: RequestOptions,
  ): Promise<EmailThread> {
    const path = withQuery(threadPath(id), parseQuery(GetThreadQuery, query));
    return this.transport.request('GET', path, EmailThreadEnvelope, undefined, options);
  }

  /** POST /email-threads/{id}/labels */
  async changeLabels(
    id: string,
    body: z.input<typeof LabelsRequest>,
    options?: RequestOptions,
  ): Promise<EmailThread> {
    const payload = parseRequest(LabelsRequest, body);
    return this.transport.request('POST', threadPath(id, '/labels'), EmailThreadEnvelope, payload, options);
  }

  /** POST /email-threads/{id}/read-state */
  async setReadState(
    id: string,
    body: z.input<typeof ReadStateRequest>,
    options?: RequestOptions,
  ): Promise<EmailThread> {
    const payload = parseRequest(ReadStateRequest, body);
    return this.transport.request(
      'POST',
      threadPath(id, '/read-state'),
      EmailThreadEnvelope,
      payload,
      options,
    );
  }

  /** POST /email-threads/{id}/snooze: `until` must be in the future on the server's clock (its 400 otherwise). */
  async snooze(
    id: string,
    body: z.input<typeof SnoozeRequest>,
    options?: RequestOptions,
  ): Promise<EmailThread> {
    const payload = parseRequest(SnoozeRequest, body);
    return this.transport.request('POST', threadPath(id, '/snooze'), EmailThreadEnvelope, payload, options);
  }

  /** POST /email-threads/{id}/drafts: a reply draft in the thread, left in the mailbox. */
  async createDraft(
    id: string,
    body: z.input<typeof CreateDraftRequest>,
    options?: RequestOptions,
  ): Promise<Draft> {
    const payload = parseRequest(CreateDraftRequest, body);
    return this.transport.request('POST', threadPath(id, '/drafts'), DraftEnvelope, payload, options);
  }

  /** POST /email-threads/{id}/reply: recipients come from the thread (`mode` reply or reply_all). */
  async reply(
    id: string,
    body: z.input<typeof ReplyRequest>,
    options?: RequestOptions,
  ): Promise<SentMessage> {
    const payload = parseRequest(ReplyRequest, body);
    return this.transport.request('POST', threadPath(id, '/reply'), SentMessageEnvelope, payload, options);
  }

  /** POST /email-threads/{id}/analysis: classify the thread now. */
  async analyze(id: string, options?: RequestOptions): Promise<ThreadAnalysis> {
    return this.transport.request(
      'POST',
      threadPath(id, '/analysis'),
      ThreadAnalysisEnvelope,
      undefined,
      options,
    );
  }

  /** GET /email-threads/{id}/analysis: the cached classification. */
  async getAnalysis(id: string, options?: RequestOptions): Promise<ThreadAnalysis> {
    return this.transport.request(
      'GET',
      threadPath(id, '/analysis'),
      ThreadAnalysisEnvelope,
      undefined,
      options,
    );
  }
}
