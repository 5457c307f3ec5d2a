import * as resources from '../../src/creates/resources.ts';
import { type ExpectedRequest, envelope, type Kind, runKeyOf } from './support.ts';

/**
 * One happy path per action: the inputs a Zap gives, the exact requests the service must
 * receive (body and Idempotency-Key included) and the output the step must produce. The error and
 * request-count tests reuse the same table.
 */
export interface OperationCase {
  kind: Kind;
  key: string;
  /** What the case shows, when an operation has several. */
  name?: string;
  inputData: Record<string, unknown>;
  meta?: Record<string, unknown>;
  requests: ExpectedRequest[];
  output: unknown;
  /** Why this case makes more than one request (every other action makes exactly one). */
  moreRequests?: string;
}

// Without custom field values: a task with them adds one read of its board's fields (their labels).
const task = { ...resources.task.sample, custom_fields: [] };
const key = (operation: string, _inputs?: Record<string, unknown>) => runKeyOf(operation);

function action(
  operation: string,
  inputData: Record<string, unknown>,
  request: Omit<ExpectedRequest, 'idempotencyKey' | 'reply'> & { data: unknown },
  output: unknown = request.data,
  name?: string,
): OperationCase {
  const { data, ...rest } = request;
  return {
    kind: 'creates',
    key: operation,
    ...(name === undefined ? {} : { name }),
    inputData,
    // v1 answers bare `{ success: true }`; v2 the envelope.
    requests: [
      {
        ...rest,
        idempotencyKey: key(operation, inputData),
        reply: rest.path.startsWith('/api/v1/') ? { success: true } : envelope(data),
      },
    ],
    output,
  };
}

const thread = resources.thread.sample;
const contact = resources.contact.sample;
const company = resources.company.sample;
const draft = resources.draft.sample;
const sent = resources.sentMessage.sample;

const customFieldsInput = {
  board_id: 'brd_roadmap',
  task_id: 'tsk_1',
  custom_field__cf_priority: ['opt_high'],
  custom_field__cf_estimate: '3',
  custom_field__cf_done: 'yes',
  custom_field__cf_note: '',
};

const boardCustomFields = [
  {
    id: 'cf_priority',
    name: 'Priority',
    type: 'tag',
    ai: false,
    display_on_card: true,
    options: [
      { id: 'opt_high', label: 'High' },
      { id: 'opt_low', label: 'Low' },
    ],
  },
  { id: 'cf_estimate', name: 'Estimate', type: 'number', ai: false, display_on_card: false, options: null },
  { id: 'cf_done', name: 'Signed off', type: 'checkbox', ai: false, display_on_card: false, options: null },
  { id: 'cf_note', name: 'Note', type: 'text', ai: false, display_on_card: false, options: null },
  {
    id: 'cf_reply',
    name: 'Reply status',
    type: 'status',
    ai: true,
    display_on_card: true,
    options: [{ id: 'opt_needs_reply', label: 'Needs reply' }],
  },
];

export const BOARD_CUSTOM_FIELDS = boardCustomFields;

const expectedCustomFields = [
  { field_id: 'cf_priority', value: ['opt_high'] },
  { field_id: 'cf_estimate', value: 3 },
  { field_id: 'cf_done', value: true },
];

/** The same values as the step outputs them: each field's name, and option labels beside option ids. */
const labelledCustomFields = [
  { field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] },
  { field_id: 'cf_estimate', value: 3, name: 'Estimate' },
  { field_id: 'cf_done', value: true, name: 'Signed off' },
];

export const CREATE_CASES: OperationCase[] = [
  action(
    'create_task',
    {
      list_id: 'lst_todo',
      title: 'Send Bob the roof quote',
      notes: 'He asked for it by Friday.',
      due_at: '2026-01-09T17:00:00Z',
      position: 'bottom',
    },
    {
      method: 'POST',
      path: '/v2/tasks',
      body: {
        list_id: 'lst_todo',
        title: 'Send Bob the roof quote',
        notes: 'He asked for it by Friday.',
        due_at: '2026-01-09T17:00:00Z',
        position: 'bottom',
      },
      data: task,
    },
  ),
  action(
    'create_task_from_thread',
    { list_id: 'lst_todo', thread_id: '18c2f0a1b2c3d4e5', archive: 'yes', title: 'Reply to Bob' },
    {
      method: 'POST',
      path: '/v2/tasks',
      body: { list_id: 'lst_todo', thread_id: '18c2f0a1b2c3d4e5', archive: true, title: 'Reply to Bob' },
      data: task,
    },
  ),
  action(
    'complete_task',
    { task_id: 'tsk_1' },
    { method: 'POST', path: '/v2/tasks/tsk_1/complete', data: { ...task, id: 'tsk_1', completed: true } },
  ),
  action(
    'mark_task_incomplete',
    { task_id: 'tsk_1' },
    { method: 'POST', path: '/api/v1/items/markIncomplete', body: { itemId: 'tsk_1' }, data: undefined },
    { id: 'tsk_1', completed: false },
  ),
  action(
    'assign_task',
    { task_id: 'tsk_1', assignee_email: 'bob@example.com' },
    {
      method: 'POST',
      path: '/api/v1/items/assignTask',
      body: { itemId: 'tsk_1', assigneeEmail: 'bob@example.com' },
      data: undefined,
    },
    { id: 'tsk_1', assignee_email: 'bob@example.com' },
  ),
  action(
    'unassign_task',
    { task_id: 'tsk_1', assignee_email: 'bob@example.com' },
    {
      method: 'POST',
      path: '/api/v1/items/unassignTask',
      body: { itemId: 'tsk_1', assigneeEmail: 'bob@example.com' },
      data: undefined,
    },
    { id: 'tsk_1', assignee_email: null, unassigned_email: 'bob@example.com' },
    'with the assignee given',
  ),
  {
    kind: 'creates',
    key: 'unassign_task',
    name: 'with the task alone: reads the assignee first',
    moreRequests: 'v1 unassign needs the current assignee, which only a read of the task tells',
    inputData: { task_id: 'tsk_1' },
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks/tsk_1',
        reply: envelope({ ...task, id: 'tsk_1', assignee: { name: 'Bob', email: 'bob@example.com' } }),
      },
      {
        method: 'POST',
        path: '/api/v1/items/unassignTask',
        body: { itemId: 'tsk_1', assigneeEmail: 'bob@example.com' },
        idempotencyKey: key('unassign_task'),
        reply: { success: true },
      },
    ],
    output: { id: 'tsk_1', assignee_email: null, unassigned_email: 'bob@example.com' },
  },
  {
    kind: 'creates',
    key: 'move_task',
    name: "Board empty: the destination must be on the task's board",
    moreRequests:
      "the task's board and its lists are read first: a move to another board is refused unless chosen",
    inputData: { task_id: 'tsk_1', list_id: 'lst_doing', after_task_id: 'tsk_2' },
    requests: [
      { method: 'GET', path: '/v2/tasks/tsk_1', reply: envelope({ ...task, id: 'tsk_1' }) },
      {
        method: 'GET',
        path: `/v2/boards/${task.board_id}/lists?limit=200`,
        reply: envelope(
          [
            { id: 'lst_todo', name: 'To do', board_id: task.board_id },
            { id: 'lst_doing', name: 'Doing', board_id: task.board_id },
          ],
          { next_cursor: null, has_more: false },
        ),
      },
      {
        method: 'POST',
        path: '/v2/tasks/tsk_1/move',
        body: { list_id: 'lst_doing', after_task_id: 'tsk_2' },
        idempotencyKey: key('move_task'),
        reply: envelope({ ...task, id: 'tsk_1', list_id: 'lst_doing', list_name: 'Doing' }),
      },
    ],
    output: { ...task, id: 'tsk_1', list_id: 'lst_doing', list_name: 'Doing' },
  },
  {
    kind: 'creates',
    key: 'move_task',
    name: 'Board chosen: a list of that board, on any board',
    moreRequests: "the chosen board's lists are read to refuse a list of another board by name",
    inputData: { board_id: 'brd_sales', task_id: 'tsk_1', list_id: 'lst_won' },
    requests: [
      {
        method: 'GET',
        path: '/v2/boards/brd_sales/lists?limit=200',
        reply: envelope([{ id: 'lst_won', name: 'Won', board_id: 'brd_sales' }], {
          next_cursor: null,
          has_more: false,
        }),
      },
      {
        method: 'POST',
        path: '/v2/tasks/tsk_1/move',
        body: { list_id: 'lst_won' },
        idempotencyKey: key('move_task'),
        reply: envelope({ ...task, id: 'tsk_1', board_id: 'brd_sales', list_id: 'lst_won' }),
      },
    ],
    output: { ...task, id: 'tsk_1', board_id: 'brd_sales', list_id: 'lst_won' },
  },
  action(
    'reorder_task',
    { task_id: 'tsk_1', position: 'bottom' },
    {
      method: 'POST',
      path: '/v2/tasks/tsk_1/reorder',
      body: { position: 'bottom' },
      data: { id: 'tsk_1', after_task_id: 'tsk_9', position_index: 4, persisted: true },
    },
  ),
  action(
    'set_task_color',
    { task_id: 'tsk_1', shade: 'red' },
    { method: 'PATCH', path: '/v2/tasks/tsk_1', body: { shade: 'red' }, data: { ...task, shade: 'red' } },
  ),
  {
    kind: 'creates',
    key: 'set_custom_fields',
    name: 'with the field types Zapier hands back',
    moreRequests: "the answer's option ids get their labels from one read of the board's fields",
    inputData: customFieldsInput,
    meta: {
      inputFields: {
        custom_field__cf_priority: { field_type: 'tag' },
        custom_field__cf_estimate: { field_type: 'number' },
        custom_field__cf_done: { field_type: 'checkbox' },
        custom_field__cf_note: { field_type: 'text' },
      },
    },
    requests: [
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_1',
        body: { custom_fields: expectedCustomFields },
        idempotencyKey: key('set_custom_fields', customFieldsInput),
        reply: envelope({ ...task, custom_fields: expectedCustomFields }),
      },
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(boardCustomFields, { next_cursor: null, has_more: false }),
      },
    ],
    output: { ...task, custom_fields: labelledCustomFields },
  },
  {
    kind: 'creates',
    key: 'set_custom_fields',
    name: 'without field types: reads the board first',
    moreRequests: 'a step whose inputs came without their field types reads the board to learn them',
    inputData: { ...customFieldsInput, custom_field__cf_priority: 'high' },
    requests: [
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(boardCustomFields, { next_cursor: null, has_more: false }),
      },
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_1',
        body: { custom_fields: expectedCustomFields },
        idempotencyKey: key('set_custom_fields', { ...customFieldsInput, custom_field__cf_priority: 'high' }),
        reply: envelope({ ...task, custom_fields: expectedCustomFields }),
      },
    ],
    output: { ...task, custom_fields: labelledCustomFields },
  },
  action(
    'link_thread',
    { task_id: 'tsk_1', thread_id: '18c2f0a1b2c3d4e6', archive: false },
    {
      method: 'POST',
      path: '/v2/tasks/tsk_1/threads',
      body: { thread_id: '18c2f0a1b2c3d4e6', archive: false },
      data: { id: 'tsk_1', thread_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6'] },
    },
  ),
  action(
    'create_board',
    { team_id: 'team_acme', name: 'Roadmap 2026' },
    {
      method: 'POST',
      path: '/v2/boards',
      body: { team_id: 'team_acme', name: 'Roadmap 2026' },
      data: { ...resources.board.sample, name: 'Roadmap 2026' },
    },
  ),
  action(
    'create_list',
    { team_id: 'team_acme', board_id: 'brd_roadmap', name: 'Waiting' },
    {
      method: 'POST',
      path: '/v2/boards/brd_roadmap/lists',
      body: { name: 'Waiting' },
      data: { id: 'lst_waiting', name: 'Waiting', board_id: 'brd_roadmap' },
    },
  ),
  action(
    'create_contact',
    {
      team_id: 'team_acme',
      name: 'Bob Stone',
      first_name: 'Bob',
      contact_info: { email: 'bob@stone.test', phone: '+44 20 7946 0000' },
      tags: ['roofing', 'vip'],
      company_name: 'Stone Ltd',
    },
    {
      method: 'POST',
      path: '/v2/contacts',
      body: {
        team_id: 'team_acme',
        name: 'Bob Stone',
        type: 'general',
        first_name: 'Bob',
        contact_info: [
          { type: 'email', value: 'bob@stone.test' },
          { type: 'phone', value: '+44 20 7946 0000' },
        ],
        tags: ['roofing', 'vip'],
        company_name: 'Stone Ltd',
      },
      data: contact,
    },
  ),
  action(
    'update_contact',
    { contact_id: 'con_bob', stage: 'Customer', company_id: 'cmp_stone' },
    {
      method: 'PATCH',
      path: '/v2/contacts/con_bob',
      body: { stage: 'Customer', company_id: 'cmp_stone' },
      data: { ...contact, stage: 'Customer' },
    },
  ),
  action(
    'create_company',
    { team_id: 'team_acme', name: 'Stone Ltd', company_info: { domain: 'stone.test' }, tags: 'roofing, vip' },
    {
      method: 'POST',
      path: '/v2/companies',
      body: {
        team_id: 'team_acme',
        name: 'Stone Ltd',
        company_info: [{ type: 'domain', value: 'stone.test' }],
        tags: ['roofing', 'vip'],
      },
      data: company,
    },
  ),
  action(
    'update_company',
    { company_id: 'cmp_stone', stage: 'Active' },
    { method: 'PATCH', path: '/v2/companies/cmp_stone', body: { stage: 'Active' }, data: company },
  ),
  action(
    'create_draft',
    { thread_id: '18c2f0a1b2c3d4e5', body: 'Thanks Bob,\nwe will look at it today.' },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/drafts',
      body: { body: 'Thanks Bob,\nwe will look at it today.', is_html: false },
      data: draft,
    },
    undefined,
    'in a thread',
  ),
  action(
    'create_draft',
    {
      to: ['bob@stone.test'],
      cc: ['carol@cafe.test, dan@cafe.test'],
      subject: 'Your quote',
      body: '<p>Hi</p>',
      is_html: true,
    },
    {
      method: 'POST',
      path: '/v2/drafts',
      body: {
        to: ['bob@stone.test'],
        cc: ['carol@cafe.test', 'dan@cafe.test'],
        subject: 'Your quote',
        body: '<p>Hi</p>',
        is_html: true,
      },
      data: { ...draft, thread_id: null, subject: 'Your quote' },
    },
    undefined,
    'as a new message',
  ),
  action(
    'reply_to_thread',
    { thread_id: '18c2f0a1b2c3d4e5', body: 'Thanks!', mode: 'reply_all' },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/reply',
      body: { body: 'Thanks!', is_html: false, mode: 'reply_all' },
      data: sent,
    },
  ),
  action(
    'send_email',
    { to: 'bob@stone.test, carol@cafe.test', subject: 'Quote', body: 'Attached.' },
    {
      method: 'POST',
      path: '/v2/emails',
      body: {
        to: ['bob@stone.test', 'carol@cafe.test'],
        subject: 'Quote',
        body: 'Attached.',
        is_html: false,
      },
      data: sent,
    },
  ),
  action(
    'change_labels',
    { thread_id: '18c2f0a1b2c3d4e5', add: ['Label_1', 'STARRED'], remove: ['INBOX'] },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/labels',
      body: { add: ['Label_1', 'STARRED'], remove: ['INBOX'] },
      data: thread,
    },
  ),
  action(
    'set_read_state',
    { thread_id: '18c2f0a1b2c3d4e5', read: 'false' },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/read-state',
      body: { read: false },
      data: thread,
    },
  ),
  action(
    'snooze_thread',
    { thread_id: '18c2f0a1b2c3d4e5', until: '2099-01-12T08:00:00Z' },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/snooze',
      body: { until: '2099-01-12T08:00:00Z' },
      data: { ...thread, unread: false },
    },
  ),
  action(
    'analyze_thread',
    { thread_id: '18c2f0a1b2c3d4e5' },
    {
      method: 'POST',
      path: '/v2/email-threads/18c2f0a1b2c3d4e5/analysis',
      data: resources.analysis.sample,
    },
  ),
];

export function caseName(entry: OperationCase): string {
  return entry.name === undefined ? entry.key : `${entry.key} (${entry.name})`;
}
