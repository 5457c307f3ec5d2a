import nock from 'nock';
import { emailMessage, emailThread, subscription, task } from './schema-examples.ts';

/** What the client tests share: an origin nock answers for, recorded requests, and one sample per resource. */

export const ORIGIN = 'http://api.threadwork.test';
export const BASE_URL = `${ORIGIN}/v2`;
export const API_KEY = 'tw_live_5f2c9a';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when none was sent. */
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Answers the next `answers.length` requests to `method pathname` (any query) in order, and records them.
 * A string body is sent as it is; anything else as JSON.
 */
export function expectRequests(method: string, pathname: string, answers: Answer[]): RecordedRequest[] {
  const recorded: RecordedRequest[] = [];
  const scope = nock(ORIGIN);
  for (const answer of answers) {
    scope
      .intercept((path: string) => path.split('?')[0] === pathname, method)
      .reply(async (request: Request) => {
        recorded.push(await record(request));
        const headers =
          typeof answer.body === 'string'
            ? { 'content-type': 'text/html', ...answer.headers }
            : { 'content-type': 'application/json', ...answer.headers };
        return [answer.status ?? 200, answer.body, headers];
      });
  }
  return recorded;
}

/** One successful v2 answer carrying `data` in the envelope. */
export function expectV2(
  method: string,
  pathname: string,
  data: unknown,
  meta: object = {},
): RecordedRequest[] {
  return expectRequests(method, pathname, [{ body: { data, meta: { request_id: 'req_ok', ...meta } } }]);
}

async function record(request: Request): Promise<RecordedRequest> {
  const url = new URL(request.url);
  const text = await request.text();
  return {
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    body: text === '' ? undefined : JSON.parse(text),
  };
}

export function errorAnswer(
  status: number,
  code: string,
  extra: { details?: unknown; headers?: Record<string, string> } = {},
): Answer {
  return {
    status,
    body: { error: { code, message: `${code} happened`, request_id: `req_${code}`, details: extra.details } },
    headers: extra.headers,
  };
}

// One sample per resource, shaped as the service answers them.

export const me = () => ({
  user_id: 'usr_ada',
  email: 'ada@example.com',
  display_name: 'Ada Lovelace',
  key: { id: 'key_v2', type: 'v2', scopes: ['boards.read'] },
});
export const team = () => ({ id: 'team_acme', name: 'Acme', subscription: subscription() });
export const board = () => ({
  id: 'brd_sales',
  name: 'Pipeline',
  board_type: 'sales',
  template: 'sales',
  team_id: 'team_acme',
  subscription: subscription(),
});
export const list = () => ({ id: 'lst_leads', name: 'Leads', board_id: 'brd_sales' });
export const boardMember = () => ({ user_id: 'usr_ada', email: 'ada@example.com', display_name: null });
export const customField = () => ({
  id: 'cf_prio',
  name: 'Priority',
  type: 'tag',
  ai: false,
  display_on_card: true,
  options: [{ id: 'opt_high', label: 'High' }],
});
export const contact = () => ({
  id: 'con_bob',
  name: 'Bob Stone',
  first_name: 'Bob',
  last_name: 'Stone',
  title: null,
  type: 'sale',
  stage: 'Lead',
  source: 'web',
  contact_info: [{ type: 'email', value: 'bob@stone.test' }],
  tags: [],
  company: { id: 'cmp_stone', name: 'Stone Ltd' },
});
export const company = () => ({
  id: 'cmp_stone',
  name: 'Stone Ltd',
  type: null,
  stage: null,
  company_info: [{ type: 'domain', value: 'stone.test' }],
  tags: ['vip'],
});
export const mailbox = () => ({
  connected: true,
  provider_id: 'gmail',
  email_address: 'ada@example.com',
  reason: null,
});
export const emailLabels = () => ({
  labels: [
    { id: 'INBOX', name: 'Inbox', type: 'system' },
    { id: 'Label_1', name: 'Clients', type: 'user' },
  ],
});
export const threadWithMessages = () => ({
  ...emailThread(),
  linked_tasks: [{ id: 'tsk_01hq3v', title: 'Send the signed contract back' }],
  messages: [{ ...emailMessage(), body_text: 'Could you send the quote?', body_html: null }],
});
export const draft = () => ({
  draft_id: 'r-8812',
  message_id: '18c2f0a1b2c3d4f0',
  thread_id: '18c2f0a1b2c3d4e5',
  subject: 'Re: Quote',
  snippet: 'Here it is',
  to: ['bob@stone.test'],
  cc: [],
  date_modified: '2026-01-05T11:00:00Z',
});
export const sentMessage = () => ({ message_id: '18c2f0a1b2c3d4f1', thread_id: '18c2f0a1b2c3d4e5' });
export const analysis = () => ({
  thread_id: '18c2f0a1b2c3d4e5',
  message_id: '18c2f0a1b2c3d4e5',
  urgency: 'high',
  sentiment: 'neutral',
  status: 'needs_reply',
  analyzed_at: '2026-01-05T09:01:00Z',
  model: 'rules-1',
});
export const webhook = () => ({
  id: 'wh_1',
  target_url: 'https://hooks.example.com/threadwork',
  events: ['task.created'],
  status: 'active',
  filters: null,
  created_at: '2026-01-05T10:00:00Z',
});
export const createdWebhook = () => ({ ...webhook(), secret: 'whsec_new' });
export const rotatedSecret = () => ({
  id: 'wh_1',
  secret: 'whsec_rotated',
  previous_secret_expires_at: '2026-01-06T10:00:00Z',
});
export const delivery = () => ({
  id: 'dlv_1',
  subscription_id: 'wh_1',
  event_id: 'evt_1',
  event_type: 'webhook.test',
  status: 'delivered',
  attempt_count: 1,
  next_attempt_at: null,
  created_at: '2026-01-05T10:00:00Z',
  attempts: [
    {
      attempted_at: '2026-01-05T10:00:00Z',
      outcome: 'succeeded',
      status_code: 200,
      duration_ms: 42,
      error: null,
    },
  ],
});
export const apiKey = () => ({
  id: 'key_v2',
  type: 'v2',
  name: 'ci',
  scopes: ['boards.read'],
  created_at: '2026-01-05T10:00:00Z',
  subscriptions: { webhooks: 1, hooks: 0 },
});
export const createdApiKey = () => ({ ...apiKey(), secret: 'tw_live_new' });
export const deleted = (id: string) => ({ id, deleted: true });
export const revokedApiKey = (id: string) => ({ ...deleted(id), webhooks_disabled: 1, hooks_deleted: 2 });
export { task };
