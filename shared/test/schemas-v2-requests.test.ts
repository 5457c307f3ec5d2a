import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import {
  atMost,
  ConsoleCreateKeyRequest,
  ConsoleNewTaskRequest,
  CreateApiKeyRequest,
  CreateBoardRequest,
  CreateCompanyRequest,
  CreateContactRequest,
  CreateCustomFieldRequest,
  CreateDraftRequest,
  CreateListRequest,
  CreateNewDraftRequest,
  CreateTaskRequest,
  CreateWebhookRequest,
  LabelsRequest,
  LinkThreadRequest,
  ListTasksQuery,
  MAX_NAME_LENGTH,
  MAX_NOTES_LENGTH,
  MAX_TITLE_LENGTH,
  MoveTaskRequest,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PaginationQuery,
  ReadStateRequest,
  ReorderTaskRequest,
  ReplyRequest,
  SearchCrmQuery,
  SendEmailRequest,
  SHADES,
  SnoozeRequest,
  UpdateBoardRequest,
  UpdateCompanyRequest,
  UpdateContactRequest,
  UpdateCustomFieldRequest,
  UpdateListRequest,
  UpdateTaskRequest,
  UpdateWebhookRequest,
  V1CreateItemRequest,
} from '../src/schemas/index.ts';
import { issuesOf, parseOk, rejectedPaths } from './schema-examples.ts';

/** Requests are parsed strictly: every rule the API documents is checked before the service acts. */

const THREAD = '18c2f0a1b2c3d4e5';

describe('POST /tasks (CreateTaskRequest)', () => {
  it('accepts a plain task and a task from a thread, which needs no title', () => {
    const plain = { list_id: 'lst_todo', title: 'Call Bob', notes: 'about the quote', position: 'bottom' };
    expect(parseOk(CreateTaskRequest, plain)).toEqual(plain);
    const fromThread = { list_id: 'lst_todo', thread_id: THREAD, archive: true, after_task_id: 'tsk_1' };
    expect(parseOk(CreateTaskRequest, fromThread)).toEqual(fromThread);
    expect(parseOk(CreateTaskRequest, { ...fromThread, title: 'Own title' }).title).toBe('Own title');
  });

  it('needs a title unless thread_id is sent', () => {
    expect(rejectedPaths(CreateTaskRequest, { list_id: 'lst_todo' })).toEqual(['title']);
    expect(rejectedPaths(CreateTaskRequest, { list_id: 'lst_todo', title: '   ' })).toEqual(['title']);
  });

  it('accepts archive only together with thread_id', () => {
    const issues = issuesOf(CreateTaskRequest, { list_id: 'lst_todo', title: 'Call Bob', archive: true });
    expect(issues.map((issue) => issue.path)).toEqual([['archive']]);
    expect(issues[0]?.message).toMatch(/thread_id/);
  });

  it('takes only top or bottom as position', () => {
    for (const position of ['top', 'bottom']) {
      expect(parseOk(CreateTaskRequest, { list_id: 'lst_todo', title: 'x', position }).position).toBe(
        position,
      );
    }
    expect(rejectedPaths(CreateTaskRequest, { list_id: 'lst_todo', title: 'x', position: 'middle' })).toEqual(
      ['position'],
    );
  });

  it('takes due_at only as an ISO 8601 date-time with Z or an offset', () => {
    for (const due_at of [
      '2026-02-06T17:00:00Z',
      '2026-02-06T17:00:00.250+01:00',
      '2026-02-06T17:00:00-05:00',
    ]) {
      expect(parseOk(CreateTaskRequest, { list_id: 'lst_todo', title: 'x', due_at }).due_at).toBe(due_at);
    }
    for (const due_at of ['2026-02-06T17:00:00', '2026-02-06', '06/02/2026', 'tomorrow', 1770397200000]) {
      expect(rejectedPaths(CreateTaskRequest, { list_id: 'lst_todo', title: 'x', due_at })).toEqual([
        'due_at',
      ]);
    }
  });

  it('takes thread_id only as a raw hex mailbox id and list_id as required', () => {
    expect(rejectedPaths(CreateTaskRequest, { list_id: 'lst_todo', thread_id: 'thread-42' })).toEqual([
      'thread_id',
    ]);
    expect(rejectedPaths(CreateTaskRequest, { title: 'x' })).toEqual(['list_id']);
  });
});

describe('PATCH /tasks/{id} (UpdateTaskRequest)', () => {
  it('accepts a shade, custom field values, or both', () => {
    expect(parseOk(UpdateTaskRequest, { shade: 'none' })).toEqual({ shade: 'none' });
    const values = {
      custom_fields: [
        { field_id: 'cf_prio', value: ['opt_high'] },
        { field_id: 'cf_ref', value: 'PO-1182' },
        { field_id: 'cf_amount', value: 3 },
        { field_id: 'cf_done', value: true },
        { field_id: 'cf_due', value: null },
        { field_id: 'cf_tags', value: [] },
      ],
    };
    expect(parseOk(UpdateTaskRequest, values)).toEqual(values);
    expect(parseOk(UpdateTaskRequest, { shade: 'deep_orange', ...values })).toEqual({
      shade: 'deep_orange',
      ...values,
    });
  });

  it('accepts every documented shade', () => {
    for (const shade of SHADES) expect(parseOk(UpdateTaskRequest, { shade }).shade).toBe(shade);
    expect(SHADES).toHaveLength(21);
  });

  it('needs shade or custom_fields', () => {
    const issues = issuesOf(UpdateTaskRequest, {});
    expect(issues).toHaveLength(1);
    expect(issues[0]?.message).toMatch(/shade.*custom_fields/);
  });

  it('rejects a shade that is not one of the documented ones', () => {
    expect(rejectedPaths(UpdateTaskRequest, { shade: 'ultraviolet' })).toEqual(['shade']);
    expect(rejectedPaths(UpdateTaskRequest, { shade: 'Yellow' })).toEqual(['shade']);
  });

  it('needs a value on every custom field entry, so a forgotten value does not clear the field', () => {
    expect(rejectedPaths(UpdateTaskRequest, { custom_fields: [{ field_id: 'cf_prio' }] })).toEqual([
      'custom_fields.0.value',
    ]);
    expect(rejectedPaths(UpdateTaskRequest, { custom_fields: [{ value: 'x' }] })).toEqual([
      'custom_fields.0.field_id',
    ]);
  });
});

describe('move, reorder and link requests', () => {
  it('moves to a list, optionally placed', () => {
    const move = { list_id: 'lst_done', position: 'bottom', after_task_id: 'tsk_2' };
    expect(parseOk(MoveTaskRequest, move)).toEqual(move);
    expect(rejectedPaths(MoveTaskRequest, { position: 'top' })).toEqual(['list_id']);
    expect(rejectedPaths(MoveTaskRequest, { list_id: 'lst_done', position: 'first' })).toEqual(['position']);
  });

  it('reorders with after_task_id or position, and needs at least one', () => {
    expect(parseOk(ReorderTaskRequest, { after_task_id: 'tsk_2' })).toEqual({ after_task_id: 'tsk_2' });
    expect(parseOk(ReorderTaskRequest, { position: 'bottom' })).toEqual({ position: 'bottom' });
    const both = { after_task_id: 'tsk_2', position: 'top' };
    expect(parseOk(ReorderTaskRequest, both)).toEqual(both);
    expect(issuesOf(ReorderTaskRequest, {})[0]?.message).toMatch(/after_task_id or position/);
    expect(rejectedPaths(ReorderTaskRequest, { position: 'up' })).toEqual(['position']);
  });

  it('links a thread by its hex id', () => {
    expect(parseOk(LinkThreadRequest, { thread_id: THREAD, archive: false })).toEqual({
      thread_id: THREAD,
      archive: false,
    });
    expect(rejectedPaths(LinkThreadRequest, {})).toEqual(['thread_id']);
  });
});

describe('ListTasksQuery and PaginationQuery', () => {
  it('coerces a limit string and defaults to 50', () => {
    expect(PAGE_LIMIT_DEFAULT).toBe(50);
    expect(PAGE_LIMIT_MAX).toBe(200);
    expect(parseOk(PaginationQuery, {})).toEqual({ limit: 50 });
    expect(parseOk(PaginationQuery, { limit: '20', cursor: 'c_2' })).toEqual({ limit: 20, cursor: 'c_2' });
    expect(parseOk(PaginationQuery, { limit: 7 })).toEqual({ limit: 7 });
  });

  it('bounds the limit to 1..200', () => {
    expect(parseOk(PaginationQuery, { limit: '1' }).limit).toBe(1);
    expect(parseOk(PaginationQuery, { limit: '200' }).limit).toBe(200);
    for (const limit of ['0', '201', '-5', '2.5', 'ten', '']) {
      expect(rejectedPaths(PaginationQuery, { limit })).toEqual(['limit']);
    }
  });

  it('rejects an empty cursor', () => {
    expect(rejectedPaths(PaginationQuery, { cursor: '' })).toEqual(['cursor']);
  });

  it('lists by exactly one of list_id or board_id', () => {
    expect(parseOk(ListTasksQuery, { list_id: 'lst_todo' })).toEqual({ list_id: 'lst_todo', limit: 50 });
    expect(parseOk(ListTasksQuery, { board_id: 'brd_ops', limit: '10' })).toEqual({
      board_id: 'brd_ops',
      limit: 10,
    });
    for (const query of [{}, { list_id: 'lst_todo', board_id: 'brd_ops' }]) {
      expect(issuesOf(ListTasksQuery, query)[0]?.message).toMatch(/exactly one of list_id or board_id/);
    }
  });

  it('parses the completed filter from its query string', () => {
    expect(parseOk(ListTasksQuery, { list_id: 'lst_todo', completed: 'false' }).completed).toBe(false);
    expect(parseOk(ListTasksQuery, { list_id: 'lst_todo', completed: 'true' }).completed).toBe(true);
    expect(parseOk(ListTasksQuery, { list_id: 'lst_todo' }).completed).toBeUndefined();
    expect(rejectedPaths(ListTasksQuery, { list_id: 'lst_todo', completed: 'no' })).toEqual(['completed']);
  });

  it('keeps the pagination bounds and rejects unknown parameters', () => {
    expect(rejectedPaths(ListTasksQuery, { list_id: 'lst_todo', limit: '500' })).toEqual(['limit']);
    const issue = issuesOf(ListTasksQuery, { list_id: 'lst_todo', sort: 'due' })[0];
    expect(issue).toMatchObject({ code: 'unrecognized_keys', keys: ['sort'], path: [] });
  });
});

describe('custom field requests', () => {
  it('creates option fields with options and card display, and plain fields without', () => {
    const tag = {
      name: 'Priority',
      type: 'tag',
      options: [{ label: 'High' }, { label: 'Low' }],
      display_on_card: true,
    };
    expect(parseOk(CreateCustomFieldRequest, tag)).toEqual(tag);
    const select = { name: 'Region', type: 'select', options: [{ label: 'EMEA' }] };
    expect(parseOk(CreateCustomFieldRequest, select)).toEqual(select);
    expect(
      parseOk(CreateCustomFieldRequest, { name: 'Stage', type: 'status', display_on_card: false }),
    ).toEqual({
      name: 'Stage',
      type: 'status',
      display_on_card: false,
    });
    expect(parseOk(CreateCustomFieldRequest, { name: 'Reference', type: 'text' })).toEqual({
      name: 'Reference',
      type: 'text',
    });
  });

  it('accepts display_on_card only for status and tag fields', () => {
    for (const type of ['text', 'number', 'select', 'multiselect', 'checkbox']) {
      const issues = issuesOf(CreateCustomFieldRequest, { name: 'F', type, display_on_card: false });
      expect(issues.map((issue) => issue.path)).toEqual([['display_on_card']]);
      expect(issues[0]?.message).toMatch(/status and tag/);
    }
  });

  it('accepts options only for option types', () => {
    for (const type of ['text', 'multiline_text', 'number', 'date', 'checkbox', 'url', 'phone']) {
      expect(rejectedPaths(CreateCustomFieldRequest, { name: 'F', type, options: [{ label: 'A' }] })).toEqual(
        ['options'],
      );
    }
    for (const type of ['select', 'status', 'tag', 'multiselect']) {
      expect(parseOk(CreateCustomFieldRequest, { name: 'F', type, options: [{ label: 'A' }] }).type).toBe(
        type,
      );
    }
  });

  it('creates only documented types, and options get their ids from the service', () => {
    expect(rejectedPaths(CreateCustomFieldRequest, { name: 'F', type: 'rating' })).toEqual(['type']);
    expect(
      issuesOf(CreateCustomFieldRequest, {
        name: 'F',
        type: 'tag',
        options: [{ id: 'opt_1', label: 'A' }],
      })[0],
    ).toMatchObject({ code: 'unrecognized_keys', keys: ['id'], path: ['options', 0] });
  });

  it('updates at least one of name, options, display_on_card', () => {
    expect(issuesOf(UpdateCustomFieldRequest, {})[0]?.message).toMatch(/name, options, display_on_card/);
    expect(parseOk(UpdateCustomFieldRequest, { name: 'Urgency' })).toEqual({ name: 'Urgency' });
    expect(parseOk(UpdateCustomFieldRequest, { display_on_card: false })).toEqual({ display_on_card: false });
    const options = { options: [{ id: 'opt_high', label: 'Very high' }, { label: 'Medium' }] };
    expect(parseOk(UpdateCustomFieldRequest, options)).toEqual(options);
  });
});

describe('mailbox requests', () => {
  it('replies with a body and a mode, defaulting to html and sender only', () => {
    expect(parseOk(ReplyRequest, { body: 'Thanks!' })).toEqual({
      body: 'Thanks!',
      is_html: true,
      mode: 'reply',
    });
    expect(parseOk(ReplyRequest, { body: 'Thanks', is_html: false, mode: 'reply_all' })).toEqual({
      body: 'Thanks',
      is_html: false,
      mode: 'reply_all',
    });
    expect(rejectedPaths(ReplyRequest, { body: 'x', mode: 'forward' })).toEqual(['mode']);
    expect(rejectedPaths(ReplyRequest, {})).toEqual(['body']);
  });

  it('rejects recipients on a reply, saying they cannot be set', () => {
    for (const key of ['to', 'cc', 'bcc']) {
      const issues = issuesOf(ReplyRequest, { body: 'x', [key]: ['eve@example.com'] });
      expect(issues.map((issue) => issue.path)).toEqual([[key]]);
      expect(issues[0]?.message).toMatch(/recipients cannot be set/);
    }
    // Even an empty list is a request to set recipients.
    expect(rejectedPaths(ReplyRequest, { body: 'x', to: [] })).toEqual(['to']);
  });

  it('rejects other unknown keys on a reply, naming them', () => {
    const issues = issuesOf(ReplyRequest, { body: 'x', subject: 'Re: hi', attachments: [] });
    expect(issues.map((issue) => issue.path)).toEqual([['subject'], ['attachments']]);
    expect(issues[0]?.message).not.toMatch(/recipients/);
  });

  it('creates a thread draft from a body alone', () => {
    expect(parseOk(CreateDraftRequest, { body: '' })).toEqual({ body: '', is_html: true });
    expect(rejectedPaths(CreateDraftRequest, { body: 'x', to: ['not an address'] })).toEqual(['to.0']);
    expect(rejectedPaths(CreateDraftRequest, { to: ['bob@stone.test'] })).toEqual(['body']);
  });

  it('creates a new draft only with at least one recipient, a subject and a body', () => {
    const draft = { to: ['bob@stone.test'], subject: 'Quote', body: '' };
    expect(parseOk(CreateNewDraftRequest, draft)).toEqual({ ...draft, is_html: true });
    const noRecipient = issuesOf(CreateNewDraftRequest, { ...draft, to: [] });
    expect(noRecipient.map((issue) => issue.path)).toEqual([['to']]);
    expect(noRecipient[0]?.message).toMatch(/recipient/);
    expect(rejectedPaths(CreateNewDraftRequest, { to: ['bob@stone.test'], body: 'x' })).toEqual(['subject']);
  });

  it('sends only to email addresses', () => {
    const email = {
      to: ['bob@stone.test'],
      cc: ['ada@example.com'],
      subject: 'Quote',
      body: '<p>Hi</p>',
      thread_id: THREAD,
    };
    expect(parseOk(SendEmailRequest, email)).toEqual({ ...email, is_html: true });
    expect(rejectedPaths(SendEmailRequest, { ...email, to: ['Bob Stone'] })).toEqual(['to.0']);
    expect(rejectedPaths(SendEmailRequest, { ...email, bcc: ['ok@example.com', 'nope'] })).toEqual(['bcc.1']);
    expect(rejectedPaths(SendEmailRequest, { ...email, to: [] })).toEqual(['to']);
    expect(rejectedPaths(SendEmailRequest, { ...email, to: 'bob@stone.test' })).toEqual(['to']);
  });

  it('sets read state from a boolean', () => {
    expect(parseOk(ReadStateRequest, { read: false })).toEqual({ read: false });
    expect(rejectedPaths(ReadStateRequest, { read: 'false' })).toEqual(['read']);
    expect(rejectedPaths(ReadStateRequest, {})).toEqual(['read']);
  });

  it('changes labels with at least one id to add or remove', () => {
    expect(parseOk(LabelsRequest, { add: ['Label_1'] })).toEqual({ add: ['Label_1'] });
    expect(parseOk(LabelsRequest, { add: [], remove: ['INBOX'] })).toEqual({ add: [], remove: ['INBOX'] });
    for (const change of [{}, { add: [] }, { add: [], remove: [] }]) {
      expect(issuesOf(LabelsRequest, change)[0]?.message).toMatch(/at least one label id/);
    }
    expect(rejectedPaths(LabelsRequest, { add: [''] })).toEqual(['add.0']);
  });

  describe('snooze', () => {
    const NOW = '2026-06-01T12:00:00Z';
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(NOW));
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('snoozes until a time in the future', () => {
      for (const until of ['2026-06-01T12:00:01Z', '2026-06-01T14:00:01+02:00', '2027-01-01T00:00:00Z']) {
        expect(parseOk(SnoozeRequest, { until })).toEqual({ until });
      }
    });

    it('leaves "in the future" to the server, whose clock decides it', () => {
      // The client's clock may differ from the server's: a past time is the server's 400 to give.
      for (const until of [NOW, '2026-06-01T11:59:59Z', '2020-01-01T00:00:00Z']) {
        expect(parseOk(SnoozeRequest, { until })).toEqual({ until });
      }
    });

    it('rejects a malformed or missing time', () => {
      for (const until of ['tomorrow', '2026-06-02', '2026-06-02T09:00:00', 1780000000000]) {
        expect(new Set(rejectedPaths(SnoozeRequest, { until }))).toEqual(new Set(['until']));
      }
      expect(rejectedPaths(SnoozeRequest, {})).toEqual(['until']);
    });
  });
});

describe('webhook requests', () => {
  const create = { target_url: 'https://hooks.example.com/threadwork', events: ['thread.reply_received'] };

  it('creates a subscription, with filters defaulting to the tasked scope', () => {
    expect(parseOk(CreateWebhookRequest, create)).toEqual(create);
    expect(parseOk(CreateWebhookRequest, { ...create, filters: {} }).filters).toEqual({ scope: 'tasked' });
    expect(parseOk(CreateWebhookRequest, { ...create, filters: { scope: 'all' } }).filters).toEqual({
      scope: 'all',
    });
    expect(rejectedPaths(CreateWebhookRequest, { ...create, filters: { scope: 'mine' } })).toEqual([
      'filters.scope',
    ]);
  });

  it('needs at least one event, and only known event types', () => {
    expect(issuesOf(CreateWebhookRequest, { ...create, events: [] })[0]).toMatchObject({
      path: ['events'],
      message: expect.stringMatching(/at least one event/),
    });
    expect(
      rejectedPaths(CreateWebhookRequest, { ...create, events: ['task.created', 'task.exploded'] }),
    ).toEqual(['events.1']);
    expect(rejectedPaths(CreateWebhookRequest, { target_url: create.target_url })).toEqual(['events']);
  });

  it('takes only an http(s) target_url', () => {
    for (const target_url of ['http://127.0.0.1:9999/hook', 'https://hooks.example.com/a?b=c']) {
      expect(parseOk(CreateWebhookRequest, { ...create, target_url }).target_url).toBe(target_url);
    }
    for (const target_url of [
      'ftp://hooks.example.com/',
      'javascript:alert(1)',
      'hooks.example.com/x',
      '',
      'https:x',
    ]) {
      const issues = issuesOf(CreateWebhookRequest, { ...create, target_url });
      expect(issues.map((issue) => issue.path)).toEqual([['target_url']]);
    }
  });

  it('updates at least one field, and accepts filters null to clear them', () => {
    expect(issuesOf(UpdateWebhookRequest, {})[0]?.message).toMatch(/at least one of/);
    expect(parseOk(UpdateWebhookRequest, { filters: null })).toEqual({ filters: null });
    expect(parseOk(UpdateWebhookRequest, { status: 'disabled' })).toEqual({ status: 'disabled' });
    expect(
      parseOk(UpdateWebhookRequest, { events: ['task.moved'], target_url: 'https://x.example/h' }),
    ).toEqual({
      events: ['task.moved'],
      target_url: 'https://x.example/h',
    });
  });

  it('applies the creation rules to an update', () => {
    expect(rejectedPaths(UpdateWebhookRequest, { events: [] })).toEqual(['events']);
    expect(rejectedPaths(UpdateWebhookRequest, { events: ['task.exploded'] })).toEqual(['events.0']);
    expect(rejectedPaths(UpdateWebhookRequest, { target_url: 'ftp://x.example/' })).toEqual(['target_url']);
    expect(rejectedPaths(UpdateWebhookRequest, { status: 'paused' })).toEqual(['status']);
  });
});

describe('CRM requests', () => {
  it('creates a contact with type general by default', () => {
    const contact = parseOk(CreateContactRequest, { team_id: 'team_acme', name: 'Bob Stone' });
    expect(contact).toEqual({ team_id: 'team_acme', name: 'Bob Stone', type: 'general' });
    expect(parseOk(CreateContactRequest, { team_id: 'team_acme', name: 'Bob', type: 'sale' }).type).toBe(
      'sale',
    );
  });

  it('creates a full contact linked to a company', () => {
    const contact = {
      team_id: 'team_acme',
      name: 'Bob Stone',
      first_name: 'Bob',
      last_name: 'Stone',
      title: 'CTO',
      type: 'sale',
      stage: 'Lead',
      source: 'web',
      contact_info: [{ type: 'email', value: 'bob@stone.test' }],
      tags: ['vip'],
      company_name: 'Stone Ltd',
    };
    expect(parseOk(CreateContactRequest, contact)).toEqual(contact);
  });

  it('needs team_id and a name for a contact', () => {
    expect(rejectedPaths(CreateContactRequest, { name: 'Bob' })).toEqual(['team_id']);
    expect(rejectedPaths(CreateContactRequest, { team_id: 'team_acme', name: ' ' })).toEqual(['name']);
  });

  it('updates contacts and companies with at least one field', () => {
    expect(parseOk(UpdateContactRequest, { company_id: 'cmp_stone' })).toEqual({ company_id: 'cmp_stone' });
    expect(parseOk(UpdateContactRequest, { title: null })).toEqual({ title: null });
    expect(issuesOf(UpdateContactRequest, {})).toHaveLength(1);
    expect(parseOk(UpdateCompanyRequest, { stage: 'Customer' })).toEqual({ stage: 'Customer' });
    expect(issuesOf(UpdateCompanyRequest, {})).toHaveLength(1);
  });

  it('creates a company under a team', () => {
    const company = {
      team_id: 'team_acme',
      name: 'Stone Ltd',
      company_info: [{ type: 'domain', value: 'stone.test' }],
    };
    expect(parseOk(CreateCompanyRequest, company)).toEqual(company);
    expect(rejectedPaths(CreateCompanyRequest, { name: 'Stone Ltd' })).toEqual(['team_id']);
  });

  it('searches a team with paging', () => {
    expect(parseOk(SearchCrmQuery, { team_id: 'team_acme', q: 'stone', limit: '5' })).toEqual({
      team_id: 'team_acme',
      q: 'stone',
      limit: 5,
    });
    expect(rejectedPaths(SearchCrmQuery, { q: 'stone' })).toEqual(['team_id']);
  });
});

describe('strict requests', () => {
  /** A valid example of every strict request, to which an unknown key is added. */
  const valid: [string, z.ZodType, Record<string, unknown>][] = [
    ['CreateBoardRequest', CreateBoardRequest, { team_id: 'team_acme', name: 'Ops' }],
    ['UpdateBoardRequest', UpdateBoardRequest, { name: 'Ops' }],
    ['CreateListRequest', CreateListRequest, { name: 'Leads' }],
    ['UpdateListRequest', UpdateListRequest, { name: 'Leads' }],
    ['CreateTaskRequest', CreateTaskRequest, { list_id: 'lst_todo', title: 'x' }],
    ['UpdateTaskRequest', UpdateTaskRequest, { shade: 'red' }],
    ['MoveTaskRequest', MoveTaskRequest, { list_id: 'lst_done' }],
    ['ReorderTaskRequest', ReorderTaskRequest, { position: 'top' }],
    ['LinkThreadRequest', LinkThreadRequest, { thread_id: THREAD }],
    ['CreateCustomFieldRequest', CreateCustomFieldRequest, { name: 'F', type: 'text' }],
    ['UpdateCustomFieldRequest', UpdateCustomFieldRequest, { name: 'F' }],
    ['CreateContactRequest', CreateContactRequest, { team_id: 'team_acme', name: 'Bob' }],
    ['UpdateContactRequest', UpdateContactRequest, { name: 'Bob' }],
    ['CreateCompanyRequest', CreateCompanyRequest, { team_id: 'team_acme', name: 'Stone' }],
    ['UpdateCompanyRequest', UpdateCompanyRequest, { name: 'Stone' }],
    ['CreateDraftRequest', CreateDraftRequest, { body: 'x' }],
    ['CreateNewDraftRequest', CreateNewDraftRequest, { to: ['bob@stone.test'], subject: 's', body: 'b' }],
    ['SendEmailRequest', SendEmailRequest, { to: ['bob@stone.test'], subject: 's', body: 'b' }],
    ['ReadStateRequest', ReadStateRequest, { read: true }],
    ['LabelsRequest', LabelsRequest, { add: ['Label_1'] }],
    ['SnoozeRequest', SnoozeRequest, { until: '2999-01-01T00:00:00Z' }],
    [
      'CreateWebhookRequest',
      CreateWebhookRequest,
      { target_url: 'https://x.example/h', events: ['task.created'] },
    ],
    ['UpdateWebhookRequest', UpdateWebhookRequest, { status: 'active' }],
    ['CreateApiKeyRequest', CreateApiKeyRequest, { name: 'ci' }],
    ['PaginationQuery', PaginationQuery, { limit: '10' }],
  ];

  it.each(valid)('%s rejects an unknown key, naming it', (_name, schema, example) => {
    parseOk(schema, example);
    const issues = issuesOf(schema, { ...example, colour: 'red' });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['colour'], path: [] });
    expect(issues[0]?.message).toContain('colour');
  });

  it('points at the nested object that carries the unknown key', () => {
    expect(
      issuesOf(UpdateTaskRequest, {
        custom_fields: [
          { field_id: 'cf_1', value: 1 },
          { field_id: 'cf_2', value: 2, kind: 'x' },
        ],
      })[0],
    ).toMatchObject({ code: 'unrecognized_keys', keys: ['kind'], path: ['custom_fields', 1] });
    expect(
      issuesOf(CreateContactRequest, {
        team_id: 'team_acme',
        name: 'Bob',
        contact_info: [{ type: 'email', value: 'bob@stone.test', primary: true }],
      })[0],
    ).toMatchObject({ code: 'unrecognized_keys', keys: ['primary'], path: ['contact_info', 0] });
    expect(
      issuesOf(CreateWebhookRequest, {
        target_url: 'https://x.example/h',
        events: ['task.created'],
        filters: { scope: 'all', x: 1 },
      })[0],
    ).toMatchObject({ code: 'unrecognized_keys', keys: ['x'], path: ['filters'] });
  });

  it('names every unknown key at once', () => {
    expect(issuesOf(CreateBoardRequest, { team_id: 't', name: 'n', a: 1, b: 2 })[0]).toMatchObject({
      keys: ['a', 'b'],
    });
  });
});

describe('CreateApiKeyRequest', () => {
  it('creates a v2 key by default and takes only known scopes', () => {
    expect(parseOk(CreateApiKeyRequest, { name: 'ci' })).toEqual({ name: 'ci', type: 'v2' });
    expect(parseOk(CreateApiKeyRequest, { name: 'ci', scopes: ['email.send'] }).scopes).toEqual([
      'email.send',
    ]);
    expect(rejectedPaths(CreateApiKeyRequest, { name: 'ci', scopes: ['email.everything'] })).toEqual([
      'scopes.0',
    ]);
    expect(rejectedPaths(CreateApiKeyRequest, { name: 'ci', scopes: [] })).toEqual(['scopes']);
  });
});

describe('lengths (docs/errors.md#lengths)', () => {
  const over = (limit: number) => 'a'.repeat(limit + 1);
  const at = (limit: number) => 'a'.repeat(limit);
  const message = (limit: number) => `at most ${limit.toLocaleString('en-US')} characters`;

  it('names the limit in the message, written as people read it', () => {
    expect(atMost(1024)).toEqual({ message: 'at most 1,024 characters' });
    expect(atMost(65_536)).toEqual({ message: 'at most 65,536 characters' });
    expect(atMost(999)).toEqual({ message: 'at most 999 characters' });
  });

  it.each([
    [
      'CreateTaskRequest title',
      CreateTaskRequest,
      (v: string) => ({ list_id: 'lst_1', title: v }),
      'title',
      MAX_TITLE_LENGTH,
    ],
    [
      'CreateTaskRequest notes',
      CreateTaskRequest,
      (v: string) => ({ list_id: 'lst_1', title: 't', notes: v }),
      'notes',
      MAX_NOTES_LENGTH,
    ],
    [
      'V1CreateItemRequest title',
      V1CreateItemRequest,
      (v: string) => ({ listId: 'lst_1', title: v }),
      'title',
      MAX_TITLE_LENGTH,
    ],
    [
      'V1CreateItemRequest notes',
      V1CreateItemRequest,
      (v: string) => ({ listId: 'lst_1', title: 't', notes: v }),
      'notes',
      MAX_NOTES_LENGTH,
    ],
    [
      'ConsoleNewTaskRequest title',
      ConsoleNewTaskRequest,
      (v: string) => ({ list_id: 'lst_1', title: v }),
      'title',
      MAX_TITLE_LENGTH,
    ],
    [
      'ConsoleCreateKeyRequest name',
      ConsoleCreateKeyRequest,
      (v: string) => ({ name: v, type: 'v2' }),
      'name',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateBoardRequest name',
      CreateBoardRequest,
      (v: string) => ({ team_id: 'team_1', name: v }),
      'name',
      MAX_NAME_LENGTH,
    ],
    ['UpdateBoardRequest name', UpdateBoardRequest, (v: string) => ({ name: v }), 'name', MAX_NAME_LENGTH],
    ['CreateListRequest name', CreateListRequest, (v: string) => ({ name: v }), 'name', MAX_NAME_LENGTH],
    ['UpdateListRequest name', UpdateListRequest, (v: string) => ({ name: v }), 'name', MAX_NAME_LENGTH],
    [
      'CreateCustomFieldRequest name',
      CreateCustomFieldRequest,
      (v: string) => ({ name: v, type: 'text' }),
      'name',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateCustomFieldRequest option',
      CreateCustomFieldRequest,
      (v: string) => ({ name: 'n', type: 'tag', options: [{ label: v }] }),
      'options[0].label',
      MAX_NAME_LENGTH,
    ],
    [
      'UpdateCustomFieldRequest option',
      UpdateCustomFieldRequest,
      (v: string) => ({ options: [{ label: v }] }),
      'options[0].label',
      MAX_NAME_LENGTH,
    ],
    ['CreateApiKeyRequest name', CreateApiKeyRequest, (v: string) => ({ name: v }), 'name', MAX_NAME_LENGTH],
    [
      'CreateContactRequest name',
      CreateContactRequest,
      (v: string) => ({ team_id: 'team_1', name: v }),
      'name',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateContactRequest first_name',
      CreateContactRequest,
      (v: string) => ({ team_id: 'team_1', name: 'n', first_name: v }),
      'first_name',
      MAX_NAME_LENGTH,
    ],
    [
      'UpdateContactRequest last_name',
      UpdateContactRequest,
      (v: string) => ({ last_name: v }),
      'last_name',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateCompanyRequest name',
      CreateCompanyRequest,
      (v: string) => ({ team_id: 'team_1', name: v }),
      'name',
      MAX_NAME_LENGTH,
    ],
    [
      'UpdateCompanyRequest name',
      UpdateCompanyRequest,
      (v: string) => ({ name: v }),
      'name',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateDraftRequest subject',
      CreateDraftRequest,
      (v: string) => ({ body: 'b', subject: v }),
      'subject',
      MAX_NAME_LENGTH,
    ],
    [
      'CreateNewDraftRequest subject',
      CreateNewDraftRequest,
      (v: string) => ({ to: ['a@b.test'], subject: v, body: 'b' }),
      'subject',
      MAX_NAME_LENGTH,
    ],
    [
      'SendEmailRequest subject',
      SendEmailRequest,
      (v: string) => ({ to: ['a@b.test'], subject: v, body: 'b' }),
      'subject',
      MAX_NAME_LENGTH,
    ],
  ] as const)(
    '%s: at the limit accepted, one more refused naming the limit',
    (_, schema, body, path, limit) => {
      parseOk(schema as z.ZodType, body(at(limit)));
      const issues = issuesOf(schema as z.ZodType, body(over(limit)));
      expect(
        issues.map((issue) => [issue.path.join('.').replace(/\.(\d+)\./g, '[$1].'), issue.message]),
      ).toEqual([[path, message(limit)]]);
    },
  );
});
