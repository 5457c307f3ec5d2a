import type {
  Board,
  Company,
  Contact,
  Draft,
  EmailThread,
  LinkThreadResult,
  List,
  ReorderResult,
  SentMessage,
  Task,
  ThreadAnalysis,
} from '@threadwork/shared/schemas';

/**
 * What each action and search returns: the v2 object's own fields at the top level, a sample of it (shown
 * in the Zap editor before a live run) and output fields with friendly labels. Samples are typed by the
 * shared schemas, and a test parses each one with them, so they cannot drift from the real answers.
 */

export interface OutputField {
  key: string;
  label: string;
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'datetime';
}

export interface Resource<T> {
  sample: T;
  outputFields: OutputField[];
  /** Tasks: the custom field values get their names and option labels (task-output.ts). */
  labelsCustomFields?: boolean;
}

export const task: Resource<Task> = {
  labelsCustomFields: true,
  sample: {
    id: 'tsk_01hq3v7c9e8f',
    content_type: 'task',
    title: 'Send Bob the roof quote',
    notes: 'He asked for it by Friday.',
    board_id: 'brd_roadmap',
    board_name: 'Roadmap',
    list_id: 'lst_todo',
    list_name: 'To do',
    completed: false,
    shade: 'none',
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] }],
    due_at: '2026-01-09T17:00:00.000Z',
    created_at: '2026-01-05T10:00:00.000Z',
    thread_ids: ['18c2f0a1b2c3d4e5'],
    first_thread_id: '18c2f0a1b2c3d4e5',
    contact_id: null,
    deal: null,
    assignee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    first_thread: {
      title: 'Quote for the roof',
      received_at: '2026-01-05T09:00:00.000Z',
      from: 'bob@stone.test',
    },
  },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'title', label: 'Title' },
    { key: 'notes', label: 'Notes' },
    { key: 'content_type', label: 'Card Kind (Task or Sale)' },
    { key: 'board_id', label: 'Board ID' },
    { key: 'board_name', label: 'Board Name' },
    { key: 'list_id', label: 'List ID' },
    { key: 'list_name', label: 'List Name' },
    { key: 'completed', label: 'Completed', type: 'boolean' },
    { key: 'shade', label: 'Color' },
    { key: 'due_at', label: 'Due Date', type: 'datetime' },
    { key: 'created_at', label: 'Created At', type: 'datetime' },
    { key: 'thread_ids', label: 'Linked Thread IDs' },
    { key: 'first_thread_id', label: 'First Thread ID' },
    { key: 'contact_id', label: 'Contact ID' },
    { key: 'assignee__name', label: 'Assignee Name' },
    { key: 'assignee__email', label: 'Assignee Email' },
    { key: 'first_thread__title', label: 'First Email Subject' },
    { key: 'first_thread__received_at', label: 'First Email Received At', type: 'datetime' },
    { key: 'first_thread__from', label: 'First Email From' },
    { key: 'deal__value', label: 'Deal Value', type: 'number' },
    { key: 'deal__source', label: 'Deal Source' },
    { key: 'deal__close_date', label: 'Deal Close Date', type: 'datetime' },
    { key: 'deal__loss_reason', label: 'Deal Loss Reason' },
    { key: 'custom_fields[]field_id', label: 'Custom Field IDs' },
    { key: 'custom_fields[]name', label: 'Custom Field Names' },
    { key: 'custom_fields[]value', label: 'Custom Field Values' },
    { key: 'custom_fields[]labels', label: 'Custom Field Option Labels' },
  ],
};

export const board: Resource<Board> = {
  sample: {
    id: 'brd_roadmap',
    name: 'Roadmap',
    board_type: 'shared',
    template: null,
    team_id: 'team_acme',
    subscription: { plan: 'pro', status: 'active', paid: true },
  },
  outputFields: [
    { key: 'id', label: 'Board ID' },
    { key: 'name', label: 'Board Name' },
    { key: 'board_type', label: 'Board Type' },
    { key: 'template', label: 'Template' },
    { key: 'team_id', label: 'Team ID' },
    { key: 'subscription__plan', label: 'Subscription Plan' },
    { key: 'subscription__status', label: 'Subscription Status' },
    { key: 'subscription__paid', label: 'Subscription Paid', type: 'boolean' },
  ],
};

export const list: Resource<List> = {
  sample: { id: 'lst_todo', name: 'To do', board_id: 'brd_roadmap' },
  outputFields: [
    { key: 'id', label: 'List ID' },
    { key: 'name', label: 'List Name' },
    { key: 'board_id', label: 'Board ID' },
  ],
};

export const contact: Resource<Contact> = {
  sample: {
    id: 'con_bob',
    name: 'Bob Stone',
    first_name: 'Bob',
    last_name: 'Stone',
    title: 'Owner',
    type: 'sale',
    stage: 'Lead',
    source: 'web',
    contact_info: [{ type: 'email', value: 'bob@stone.test' }],
    tags: ['roofing'],
    company: { id: 'cmp_stone', name: 'Stone Ltd' },
  },
  outputFields: [
    { key: 'id', label: 'Contact ID' },
    { key: 'name', label: 'Name' },
    { key: 'first_name', label: 'First Name' },
    { key: 'last_name', label: 'Last Name' },
    { key: 'title', label: 'Job Title' },
    { key: 'type', label: 'Type' },
    { key: 'stage', label: 'Stage' },
    { key: 'source', label: 'Source' },
    { key: 'contact_info[]type', label: 'Contact Info Types' },
    { key: 'contact_info[]value', label: 'Contact Info Values' },
    { key: 'tags', label: 'Tags' },
    { key: 'company__id', label: 'Company ID' },
    { key: 'company__name', label: 'Company Name' },
  ],
};

export const company: Resource<Company> = {
  sample: {
    id: 'cmp_stone',
    name: 'Stone Ltd',
    type: 'customer',
    stage: 'Active',
    company_info: [{ type: 'domain', value: 'stone.test' }],
    tags: ['roofing'],
  },
  outputFields: [
    { key: 'id', label: 'Company ID' },
    { key: 'name', label: 'Name' },
    { key: 'type', label: 'Type' },
    { key: 'stage', label: 'Stage' },
    { key: 'company_info[]type', label: 'Company Info Types' },
    { key: 'company_info[]value', label: 'Company Info Values' },
    { key: 'tags', label: 'Tags' },
  ],
};

export const thread: Resource<EmailThread> = {
  sample: {
    provider: 'gmail',
    thread_id: '18c2f0a1b2c3d4e5',
    message_ids: ['18c2f0a1b2c3d4e5'],
    subject: 'Quote for the roof',
    participants: [
      { email: 'bob@stone.test', name: 'Bob' },
      { email: 'ada@example.com', name: 'Ada Lovelace' },
    ],
    latest_message_at: '2026-01-05T09:00:00.000Z',
    snippet: 'Hi Ada, the quote for the roof is attached.',
    direction: 'inbound',
    unread: true,
  },
  outputFields: [
    { key: 'thread_id', label: 'Thread ID' },
    { key: 'subject', label: 'Subject' },
    { key: 'snippet', label: 'Snippet' },
    { key: 'provider', label: 'Mail Provider' },
    { key: 'message_ids', label: 'Message IDs' },
    { key: 'participants[]email', label: 'Participant Emails' },
    { key: 'participants[]name', label: 'Participant Names' },
    { key: 'latest_message_at', label: 'Latest Message At', type: 'datetime' },
    { key: 'direction', label: 'Direction' },
    { key: 'unread', label: 'Unread', type: 'boolean' },
  ],
};

export const draft: Resource<Draft> = {
  sample: {
    draft_id: 'r-5521373384526316420',
    message_id: '18c2f0a1b2c3d4f9',
    thread_id: '18c2f0a1b2c3d4e5',
    subject: 'Re: Quote for the roof',
    snippet: 'Thanks Bob, we will look at it today.',
    to: ['bob@stone.test'],
    cc: [],
    date_modified: '2026-01-05T10:15:00.000Z',
  },
  outputFields: [
    { key: 'draft_id', label: 'Draft ID' },
    { key: 'message_id', label: 'Message ID' },
    { key: 'thread_id', label: 'Thread ID' },
    { key: 'subject', label: 'Subject' },
    { key: 'snippet', label: 'Snippet' },
    { key: 'to', label: 'To' },
    { key: 'cc', label: 'Cc' },
    { key: 'date_modified', label: 'Last Modified At', type: 'datetime' },
  ],
};

export const sentMessage: Resource<SentMessage> = {
  sample: { message_id: '18c2f0a1b2c3d4fa', thread_id: '18c2f0a1b2c3d4e5' },
  outputFields: [
    { key: 'message_id', label: 'Message ID' },
    { key: 'thread_id', label: 'Thread ID' },
  ],
};

export const analysis: Resource<ThreadAnalysis> = {
  sample: {
    thread_id: '18c2f0a1b2c3d4e5',
    message_id: '18c2f0a1b2c3d4e5',
    urgency: 'medium',
    sentiment: 'neutral',
    status: 'needs_reply',
    analyzed_at: '2026-01-05T10:20:00.000Z',
    model: 'threadwork-classifier-1',
  },
  outputFields: [
    { key: 'thread_id', label: 'Thread ID' },
    { key: 'message_id', label: 'Analyzed Message ID' },
    { key: 'urgency', label: 'Urgency' },
    { key: 'sentiment', label: 'Sentiment' },
    { key: 'status', label: 'Reply Status' },
    { key: 'analyzed_at', label: 'Analyzed At', type: 'datetime' },
    { key: 'model', label: 'Model' },
  ],
};

export const reorderResult: Resource<ReorderResult> = {
  sample: { id: 'tsk_01hq3v7c9e8f', after_task_id: 'tsk_01hq3v7c9e8a', position_index: 1, persisted: true },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'after_task_id', label: 'Placed Below Task ID' },
    { key: 'position_index', label: 'Position From Top', type: 'integer' },
    { key: 'persisted', label: 'Stored', type: 'boolean' },
  ],
};

export const linkThreadResult: Resource<LinkThreadResult> = {
  sample: { id: 'tsk_01hq3v7c9e8f', thread_ids: ['18c2f0a1b2c3d4e5', '18c2f0a1b2c3d4e6'] },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'thread_ids', label: 'Linked Thread IDs' },
  ],
};

/** What the v1-only task actions return: v1 answers `{ success: true }`, so the app states what it set. */
export interface CompletionChange {
  id: string;
  completed: boolean;
}

/** A board member as the Find Board Member search returns it: `id` is the member's user id. */
export interface BoardMemberOutput {
  id: string;
  email: string;
  display_name: string | null;
}

export const boardMember: Resource<BoardMemberOutput> = {
  sample: { id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
  outputFields: [
    { key: 'id', label: 'User ID' },
    { key: 'email', label: 'Email' },
    { key: 'display_name', label: 'Name' },
  ],
};

/** What delete_task returns: the service's answer, the deleted task's id. */
export interface DeletedTask {
  id: string;
  deleted: true;
}

export const deletedTask: Resource<DeletedTask> = {
  sample: { id: 'tsk_01hq3v7c9e8f', deleted: true },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'deleted', label: 'Deleted', type: 'boolean' },
  ],
};

export interface AssignmentChange {
  id: string;
  assignee_email: string | null;
  /** unassign_task: the member who was unassigned; null when nobody was assigned. */
  unassigned_email?: string | null;
}

export const completionChange: Resource<CompletionChange> = {
  sample: { id: 'tsk_01hq3v7c9e8f', completed: false },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'completed', label: 'Completed', type: 'boolean' },
  ],
};

export const assignmentChange: Resource<AssignmentChange> = {
  sample: { id: 'tsk_01hq3v7c9e8f', assignee_email: 'bob@example.com' },
  outputFields: [
    { key: 'id', label: 'Task ID' },
    { key: 'assignee_email', label: 'Assignee Email' },
  ],
};

export const unassignment: Resource<AssignmentChange> = {
  sample: { id: 'tsk_01hq3v7c9e8f', assignee_email: null, unassigned_email: 'bob@example.com' },
  outputFields: [
    ...assignmentChange.outputFields,
    { key: 'unassigned_email', label: 'Unassigned Member Email' },
  ],
};
