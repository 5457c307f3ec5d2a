import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiKey,
  Board,
  Company,
  Contact,
  CreatedApiKey,
  CreatedWebhookSubscription,
  CustomField,
  Deleted,
  Draft,
  EmailLabels,
  EmailThread,
  envelope,
  LinkThreadResult,
  List,
  Mailbox,
  Me,
  ReorderResult,
  RevokedApiKey,
  Task,
  Team,
  ThreadAnalysis,
  WebhookDelivery,
  WebhookSubscription,
} from '../src/schemas/index.ts';
import {
  emailMessage,
  emailThread,
  issuesOf,
  linkedTask,
  parseOk,
  rejectedPaths,
  saleTask,
  subscription,
  task,
  without,
} from './schema-examples.ts';

/**
 * Responses are parsed tolerantly: the API grows additively, so unknown fields are kept and enum values
 * added later still parse; a required field missing or of the wrong type is rejected.
 */

describe('Me', () => {
  const me = {
    user_id: 'usr_ada',
    email: 'ada@example.com',
    display_name: 'Ada Lovelace',
    key: { id: 'key_v2', type: 'v2', scopes: ['boards.read', 'tasks.write'] },
  };

  it('parses the key used by a v2 key', () => {
    expect(parseOk(Me, me)).toEqual(me);
  });

  it('parses a legacy-token principal, which has no key', () => {
    const legacy = { user_id: 'usr_ada', email: null, display_name: null };
    expect(parseOk(Me, legacy)).toEqual(legacy);
    expect(parseOk(Me, { ...legacy, key: null }).key).toBeNull();
  });

  it('keeps unknown fields, also inside the key, and accepts a new key type', () => {
    const later = { ...me, locale: 'en-GB', key: { ...me.key, type: 'service', expires_at: null } };
    expect(parseOk(Me, later)).toEqual(later);
  });

  it('rejects a missing user_id and scopes that are not strings', () => {
    expect(rejectedPaths(Me, without(me, 'user_id'))).toEqual(['user_id']);
    expect(rejectedPaths(Me, { ...me, key: { ...me.key, scopes: 'boards.read' } })).toEqual(['key.scopes']);
  });
});

describe('Team and Board', () => {
  const team = { id: 'team_acme', name: 'Acme', subscription: subscription() };
  const board = {
    id: 'brd_sales',
    name: 'Pipeline',
    board_type: 'sales',
    template: 'sales',
    team_id: 'team_acme',
    subscription: subscription(),
  };

  it('parses a team with a subscription and one without a subscription record', () => {
    expect(parseOk(Team, team)).toEqual(team);
    expect(parseOk(Team, { ...team, subscription: null }).subscription).toBeNull();
  });

  it('accepts every documented subscription status and one added later', () => {
    for (const status of ['trialing', 'trial_expired', 'past_due', 'unpaid', 'cancel_pending', 'paused']) {
      const parsed = parseOk(Team, { ...team, subscription: { plan: null, status, paid: false } });
      expect(parsed.subscription?.status).toBe(status);
    }
  });

  it('requires the subscription key (null, not absent) and a boolean paid', () => {
    expect(rejectedPaths(Team, without(team, 'subscription'))).toEqual(['subscription']);
    expect(rejectedPaths(Team, { ...team, subscription: { ...subscription(), paid: 'yes' } })).toEqual([
      'subscription.paid',
    ]);
  });

  it('parses a personal board without template or team, and keeps unknown fields', () => {
    const personal = { ...board, board_type: 'private', template: null, team_id: null, subscription: null };
    expect(parseOk(Board, personal)).toEqual(personal);
    const later = { ...board, board_type: 'kanban', archived: false };
    expect(parseOk(Board, later)).toEqual(later);
  });

  it('rejects a board without a name', () => {
    expect(rejectedPaths(Board, without(board, 'name'))).toEqual(['name']);
  });

  it('parses a list and rejects one without board_id', () => {
    const list = { id: 'lst_leads', name: 'Leads', board_id: 'brd_sales' };
    expect(parseOk(List, list)).toEqual(list);
    expect(rejectedPaths(List, without(list, 'board_id'))).toEqual(['board_id']);
  });
});

describe('Task', () => {
  it('parses a normal task card', () => {
    expect(parseOk(Task, task())).toEqual(task());
  });

  it('parses a sale card with its deal and CRM contact', () => {
    const parsed = parseOk(Task, saleTask());
    expect(parsed).toEqual(saleTask());
    expect(parsed.deal).toEqual({
      value: 1200,
      source: 'web',
      close_date: '2026-03-31T00:00:00Z',
      loss_reason: null,
    });
    expect(parsed.contact_id).toBe('con_bob');
  });

  it('parses a deal whose fields are all null', () => {
    const deal = { value: null, source: null, close_date: null, loss_reason: null };
    expect(parseOk(Task, { ...saleTask(), deal }).deal).toEqual(deal);
  });

  it('keeps unknown fields at every level and accepts a shade or content type added later', () => {
    const later = {
      ...saleTask(),
      shade: 'ultraviolet',
      content_type: 'hire',
      priority_score: 7,
      deal: { ...saleTask().deal, currency: 'EUR' },
      assignee: { name: 'Ada', email: 'ada@example.com', avatar_url: 'https://cdn.example/ada.png' },
    };
    expect(parseOk(Task, later)).toEqual(later);
  });

  it('keeps custom field values of any shape', () => {
    const values = [
      { field_id: 'cf_done', value: true },
      { field_id: 'cf_amount', value: 12.5 },
      { field_id: 'cf_cleared', value: null },
      { field_id: 'cf_meta', value: { nested: ['x'] } },
    ];
    expect(parseOk(Task, { ...task(), custom_fields: values }).custom_fields).toEqual(values);
  });

  it('rejects required fields that are missing or of the wrong type', () => {
    expect(rejectedPaths(Task, without(task(), 'title'))).toEqual(['title']);
    expect(rejectedPaths(Task, without(task(), 'thread_ids'))).toEqual(['thread_ids']);
    expect(rejectedPaths(Task, { ...task(), completed: 'false' })).toEqual(['completed']);
    expect(rejectedPaths(Task, { ...task(), shade: 3 })).toEqual(['shade']);
    expect(rejectedPaths(Task, { ...task(), custom_fields: [{ value: 'x' }] })).toEqual([
      'custom_fields.0.field_id',
    ]);
    expect(rejectedPaths(Task, { ...saleTask(), deal: { ...saleTask().deal, value: '1200' } })).toEqual([
      'deal.value',
    ]);
  });

  it('rejects timestamps that are not ISO 8601 date-times', () => {
    expect(rejectedPaths(Task, { ...task(), due_at: 'next Friday' })).toEqual(['due_at']);
    expect(rejectedPaths(Task, { ...task(), created_at: 1767225600 })).toEqual(['created_at']);
  });

  it('parses what reorder and thread linking answer', () => {
    const reordered = { id: 'tsk_01hq3v', after_task_id: null, position_index: 0, persisted: true };
    expect(parseOk(ReorderResult, reordered)).toEqual(reordered);
    expect(rejectedPaths(ReorderResult, { ...reordered, position_index: 1.5 })).toEqual(['position_index']);
    const linked = { id: 'tsk_01hq3v', thread_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6'] };
    expect(parseOk(LinkThreadResult, linked)).toEqual(linked);
  });
});

describe('CustomField', () => {
  const status = {
    id: 'cf_status',
    name: 'Response status',
    type: 'status',
    ai: true,
    display_on_card: true,
    options: [
      { id: 'opt_needs_reply', label: 'Needs reply' },
      { id: 'opt_waiting', label: 'Waiting' },
    ],
  };

  it('parses an option field and a plain field without options', () => {
    expect(parseOk(CustomField, status)).toEqual(status);
    const text = {
      id: 'cf_ref',
      name: 'Reference',
      type: 'text',
      ai: false,
      display_on_card: false,
      options: null,
    };
    expect(parseOk(CustomField, text)).toEqual(text);
  });

  it('accepts a field type added later and keeps unknown fields', () => {
    const later = { ...status, type: 'rating', options: [{ id: 'opt_1', label: 'One', color: 'red' }] };
    expect(parseOk(CustomField, later)).toEqual(later);
  });

  it('rejects a missing ai flag and options without a label', () => {
    expect(rejectedPaths(CustomField, without(status, 'ai'))).toEqual(['ai']);
    expect(rejectedPaths(CustomField, { ...status, options: [{ id: 'opt_1' }] })).toEqual([
      'options.0.label',
    ]);
  });
});

describe('Mailbox resources', () => {
  it('parses a thread from search results, without linked tasks or messages', () => {
    const parsed = parseOk(EmailThread, emailThread());
    expect(parsed).toEqual(emailThread());
    expect(parsed).not.toHaveProperty('linked_tasks');
    expect(parsed).not.toHaveProperty('messages');
  });

  it('parses a single thread with its linked tasks and messages with bodies', () => {
    const message = { ...emailMessage(), body_text: 'Could you send the quote?', body_html: null };
    const thread = {
      ...emailThread(),
      linked_tasks: [linkedTask(), { id: 'tsk_2', title: null }],
      messages: [message],
    };
    expect(parseOk(EmailThread, thread)).toEqual(thread);
  });

  it('parses null linked tasks, messages and direction', () => {
    const thread = { ...emailThread(), direction: null, linked_tasks: null, messages: null };
    expect(parseOk(EmailThread, thread)).toEqual(thread);
  });

  it('keeps unknown fields of threads, messages and addresses', () => {
    const message = {
      ...emailMessage(),
      has_attachments: true,
      from: { email: 'bob@stone.test', name: 'Bob', x: 1 },
    };
    const thread = { ...emailThread(), starred: false, messages: [message] };
    expect(parseOk(EmailThread, thread)).toEqual(thread);
  });

  it('rejects malformed threads and messages', () => {
    expect(rejectedPaths(EmailThread, without(emailThread(), 'thread_id'))).toEqual(['thread_id']);
    expect(rejectedPaths(EmailThread, { ...emailThread(), unread: 1 })).toEqual(['unread']);
    expect(
      rejectedPaths(EmailThread, { ...emailThread(), messages: [without(emailMessage(), 'from')] }),
    ).toEqual(['messages.0.from']);
    expect(rejectedPaths(EmailThread, { ...emailThread(), linked_tasks: [{ title: 'x' }] })).toEqual([
      'linked_tasks.0.id',
    ]);
  });

  it('parses system and user labels, and a label type added later', () => {
    const labels = {
      labels: [
        { id: 'INBOX', name: 'INBOX', type: 'system' },
        { id: 'CATEGORY_PROMOTIONS', name: null, type: 'system' },
        { id: 'Label_1', name: 'Clients', type: 'user' },
        { id: 'Label_2', name: 'Shared', type: 'shared' },
      ],
    };
    expect(parseOk(EmailLabels, labels)).toEqual(labels);
    expect(rejectedPaths(EmailLabels, { labels: [{ id: 'INBOX', name: 'INBOX' }] })).toEqual([
      'labels.0.type',
    ]);
  });

  it('parses a draft, on a thread and standalone', () => {
    const draft = {
      draft_id: 'r-8841551290011',
      message_id: '18c2f0a1b2c3d4f0',
      thread_id: '18c2f0a1b2c3d4e5',
      subject: 'Re: Quote',
      snippet: 'Here is the quote',
      to: ['bob@stone.test'],
      cc: [],
      date_modified: '2026-01-05T11:00:00Z',
    };
    expect(parseOk(Draft, draft)).toEqual(draft);
    const standalone = {
      ...draft,
      message_id: null,
      thread_id: null,
      subject: null,
      snippet: null,
      date_modified: null,
    };
    expect(parseOk(Draft, standalone)).toEqual(standalone);
    expect(rejectedPaths(Draft, { ...draft, to: [{ email: 'bob@stone.test' }] })).toEqual(['to.0']);
  });

  it('parses the mailbox state for every reason', () => {
    const connected = {
      connected: true,
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      reason: null,
    };
    const notConnected = {
      connected: false,
      provider_id: null,
      email_address: null,
      reason: 'not_connected',
    };
    const reauth = {
      connected: false,
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      reason: 'reauth_required',
    };
    const later = { ...notConnected, reason: 'suspended' };
    for (const mailbox of [connected, notConnected, reauth, later]) {
      expect(parseOk(Mailbox, mailbox)).toEqual(mailbox);
    }
    expect(rejectedPaths(Mailbox, without(connected, 'connected'))).toEqual(['connected']);
  });
});

describe('CRM', () => {
  const contact = {
    id: 'con_bob',
    name: 'Bob Stone',
    first_name: 'Bob',
    last_name: 'Stone',
    title: null,
    type: 'sale',
    stage: 'Lead',
    source: 'web',
    contact_info: [
      { type: 'email', value: 'bob@stone.test' },
      { type: 'phone', value: '+44 20 7946 0000' },
    ],
    tags: ['vip'],
    company: { id: 'cmp_stone', name: 'Stone Ltd' },
  };
  const company = {
    id: 'cmp_stone',
    name: 'Stone Ltd',
    type: null,
    stage: null,
    company_info: [{ type: 'domain', value: 'stone.test' }],
    tags: [],
  };

  it('parses a contact, with and without a company', () => {
    expect(parseOk(Contact, contact)).toEqual(contact);
    expect(parseOk(Contact, { ...contact, company: null }).company).toBeNull();
    expect(parseOk(Contact, { ...contact, company: { id: null, name: null } }).company).toEqual({
      id: null,
      name: null,
    });
  });

  it('parses a company and keeps unknown fields', () => {
    expect(parseOk(Company, company)).toEqual(company);
    const later = { ...company, employees: 40 };
    expect(parseOk(Company, later)).toEqual(later);
  });

  it('rejects contact info entries without a value and tags that are not strings', () => {
    expect(rejectedPaths(Contact, { ...contact, contact_info: [{ type: 'email' }] })).toEqual([
      'contact_info.0.value',
    ]);
    expect(rejectedPaths(Company, { ...company, tags: [1] })).toEqual(['tags.0']);
  });
});

describe('Webhooks', () => {
  const webhook = {
    id: 'wh_reply',
    target_url: 'https://hooks.example.com/threadwork',
    events: ['thread.reply_received', 'task.created'],
    status: 'active',
    filters: { scope: 'tasked' },
    created_at: '2026-01-05T10:00:00Z',
  };

  it('parses a subscription, with and without filters', () => {
    expect(parseOk(WebhookSubscription, webhook)).toEqual(webhook);
    const disabled = { ...webhook, status: 'disabled', filters: null, disabled_reason: 'gone' };
    expect(parseOk(WebhookSubscription, disabled)).toEqual(disabled);
    // The key it belongs to, or null (made in the web app); a server that does not send it is understood.
    const revoked = { ...disabled, disabled_reason: 'key_revoked', key_id: 'key_zap' };
    expect(parseOk(WebhookSubscription, revoked)).toEqual(revoked);
    expect(parseOk(WebhookSubscription, { ...webhook, key_id: null }).key_id).toBeNull();
    expect(rejectedPaths(WebhookSubscription, { ...webhook, key_id: 7 })).toEqual(['key_id']);
  });

  it('keeps event types, statuses and filter scopes added later', () => {
    const later = {
      ...webhook,
      events: ['board.renamed'],
      status: 'paused',
      filters: { scope: 'mine', x: 1 },
    };
    expect(parseOk(WebhookSubscription, later)).toEqual(later);
  });

  it('carries the secret only in the creation answer', () => {
    const created = { ...webhook, secret: 'whsec_0123456789abcdef' };
    expect(parseOk(CreatedWebhookSubscription, created).secret).toBe('whsec_0123456789abcdef');
    expect(rejectedPaths(CreatedWebhookSubscription, webhook)).toEqual(['secret']);
  });

  it('parses the creation answer the spec promises: id, target_url, events and secret alone', () => {
    const minimal = {
      id: 'wh_1',
      target_url: 'https://hooks.example.com/in',
      events: ['task.created'],
      secret: 's',
    };
    expect(parseOk(CreatedWebhookSubscription, minimal)).toEqual(minimal);
    expect(rejectedPaths(CreatedWebhookSubscription, { ...minimal, target_url: undefined })).toEqual([
      'target_url',
    ]);
  });

  it('rejects a subscription whose events are not a list', () => {
    expect(rejectedPaths(WebhookSubscription, { ...webhook, events: 'task.created' })).toEqual(['events']);
  });

  it('parses a delivery with its attempts', () => {
    const delivery = {
      id: 'whd_1',
      subscription_id: 'wh_reply',
      event_id: 'evt_1',
      event_type: 'task.created',
      status: 'pending',
      attempt_count: 2,
      next_attempt_at: '2026-01-05T10:05:05Z',
      created_at: '2026-01-05T10:00:00Z',
      attempts: [
        {
          attempted_at: '2026-01-05T10:00:00Z',
          outcome: 'failed',
          status_code: null,
          duration_ms: 15000,
          error: 'timed out after 15 s',
        },
        {
          attempted_at: '2026-01-05T10:00:05Z',
          outcome: 'failed',
          status_code: 503,
          duration_ms: 42.5,
          error: null,
        },
      ],
    };
    expect(parseOk(WebhookDelivery, delivery)).toEqual(delivery);
    const delivered = { ...delivery, status: 'delivered', next_attempt_at: null, attempts: [] };
    expect(parseOk(WebhookDelivery, delivered)).toEqual(delivered);
    expect(
      rejectedPaths(WebhookDelivery, {
        ...delivery,
        attempts: [{ ...delivery.attempts[0], status_code: '503' }],
      }),
    ).toEqual(['attempts.0.status_code']);
  });
});

describe('ThreadAnalysis and ApiKey', () => {
  const analysis = {
    thread_id: '18c2f0a1b2c3d4e5',
    message_id: '18c2f0a1b2c3d4e5',
    urgency: 'high',
    sentiment: 'negative',
    status: 'needs_reply',
    analyzed_at: '2026-01-05T09:01:00Z',
    model: 'rules-2026.1',
  };

  it('parses an analysis and accepts values added later', () => {
    expect(parseOk(ThreadAnalysis, analysis)).toEqual(analysis);
    const later = { ...analysis, urgency: 'critical', status: 'escalated', confidence: 0.9 };
    expect(parseOk(ThreadAnalysis, later)).toEqual(later);
  });

  it('rejects an analysis without its time', () => {
    expect(rejectedPaths(ThreadAnalysis, without(analysis, 'analyzed_at'))).toEqual(['analyzed_at']);
  });

  const v2Key = {
    id: 'key_v2',
    type: 'v2',
    name: 'ci',
    scopes: ['boards.read'],
    api_key: null,
    created_at: '2026-01-05T10:00:00Z',
    subscriptions: { webhooks: 2, hooks: 0 },
  };
  const legacyKey = {
    ...v2Key,
    id: 'key_zap',
    type: 'legacy',
    name: 'Zapier',
    scopes: [],
    api_key: 'ak_4f1c',
  };

  it('parses v2 and legacy keys as listed, without secrets', () => {
    expect(parseOk(ApiKey, v2Key)).toEqual(v2Key);
    expect(parseOk(ApiKey, legacyKey)).toEqual(legacyKey);
    expect(rejectedPaths(ApiKey, without(v2Key, 'name'))).toEqual(['name']);
    expect(rejectedPaths(ApiKey, { ...v2Key, subscriptions: { webhooks: -1, hooks: 0 } })).toEqual([
      'subscriptions.webhooks',
    ]);
  });

  it('parses what revoking a key answers: what it stopped', () => {
    const revoked = { id: 'key_zap', deleted: true, webhooks_disabled: 1, hooks_deleted: 3 };
    expect(parseOk(RevokedApiKey, revoked)).toEqual(revoked);
    expect(rejectedPaths(RevokedApiKey, without(revoked, 'hooks_deleted'))).toEqual(['hooks_deleted']);
  });

  it('parses the secrets a newly created key answers', () => {
    expect(parseOk(CreatedApiKey, { ...v2Key, secret: 'tw_live_secret' }).secret).toBe('tw_live_secret');
    expect(parseOk(CreatedApiKey, { ...legacyKey, api_secret: 's3cr3t' }).api_secret).toBe('s3cr3t');
  });
});

describe('the success envelope', () => {
  const page = {
    data: [task(), saleTask()],
    meta: { request_id: 'req_7f3a', pagination: { next_cursor: 'c_2', has_more: true, limit: 2 } },
  };

  it('parses a page of resources with its pagination', () => {
    const parsed = parseOk(envelope(z.array(Task)), page);
    expect(parsed).toEqual(page);
    expect(parsed.meta.pagination?.next_cursor).toBe('c_2');
  });

  it('parses the last page and a single resource without pagination', () => {
    const last = {
      ...page,
      meta: { request_id: 'req_1', pagination: { next_cursor: null, has_more: false, limit: 50 } },
    };
    expect(parseOk(envelope(z.array(Task)), last)).toEqual(last);
    const single = { data: task(), meta: { request_id: 'req_2' } };
    expect(parseOk(envelope(Task), single)).toEqual(single);
    const deleted = { data: { id: 'tsk_01hq3v', deleted: true }, meta: { request_id: 'req_3' } };
    expect(parseOk(envelope(Deleted), deleted)).toEqual(deleted);
  });

  it('validates the data it wraps', () => {
    expect(
      rejectedPaths(envelope(z.array(Task)), { ...page, data: [task(), without(task(), 'id')] }),
    ).toEqual(['data.1.id']);
  });

  it('requires a request id and a complete pagination object', () => {
    expect(rejectedPaths(envelope(Task), { data: task(), meta: {} })).toEqual(['meta.request_id']);
    const broken = { ...page, meta: { request_id: 'req_1', pagination: { next_cursor: null, limit: 50 } } };
    expect(rejectedPaths(envelope(z.array(Task)), broken)).toEqual(['meta.pagination.has_more']);
    expect(issuesOf(envelope(Task), { data: task() })[0]?.path).toEqual(['meta']);
  });
});
