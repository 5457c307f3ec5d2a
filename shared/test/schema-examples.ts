import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * Realistic resources built from the API documents' field tables, shared by the schema tests. Each is a
 * function so that a test can change its copy freely.
 */

export const subscription = () => ({ plan: 'pro', status: 'active', paid: true });

export const task = () => ({
  id: 'tsk_01hq3v',
  content_type: 'task',
  title: 'Send the signed contract back',
  notes: 'Legal wants it by Friday',
  board_id: 'brd_ops',
  board_name: 'Operations',
  list_id: 'lst_todo',
  list_name: 'To do',
  completed: false,
  shade: 'yellow',
  custom_fields: [
    { field_id: 'cf_prio', value: ['opt_high'] },
    { field_id: 'cf_ref', value: 'PO-1182' },
  ],
  due_at: '2026-02-06T17:00:00+01:00',
  created_at: '2026-01-05T10:00:00Z',
  thread_ids: ['18c2f0a1b2c3d4e5'],
  contact_id: null,
  deal: null,
  assignee: { name: 'Ada Lovelace', email: 'ada@example.com' },
  first_thread: { title: 'Contract', received_at: '2026-01-05T09:00:00Z', from: 'bob@stone.test' },
});

export const saleTask = () => ({
  ...task(),
  id: 'tsk_deal_1',
  content_type: 'sale',
  title: 'Call Bob',
  notes: null,
  board_id: 'brd_sales',
  board_name: 'Pipeline',
  list_id: 'lst_leads',
  list_name: 'Leads',
  shade: 'none',
  custom_fields: [],
  due_at: null,
  contact_id: 'con_bob',
  deal: { value: 1200, source: 'web', close_date: '2026-03-31T00:00:00Z', loss_reason: null },
  assignee: null,
  first_thread: null,
});

export const emailMessage = () => ({
  id: '18c2f0a1b2c3d4e5',
  subject: 'Quote',
  from: { email: 'bob@stone.test', name: 'Bob' },
  to: [{ email: 'ada@example.com', name: null }],
  cc: [],
  date: '2026-01-05T09:00:00Z',
  snippet: 'Could you send the quote for…',
  unread: true,
  labels: ['INBOX', 'UNREAD'],
});

export const emailThread = () => ({
  provider: 'gmail',
  thread_id: '18c2f0a1b2c3d4e5',
  message_ids: ['18c2f0a1b2c3d4e5'],
  subject: 'Quote',
  participants: [
    { email: 'bob@stone.test', name: 'Bob' },
    { email: 'ada@example.com', name: null },
  ],
  latest_message_at: '2026-01-05T09:00:00Z',
  snippet: 'Could you send the quote for…',
  direction: 'inbound',
  unread: true,
});

export const linkedTask = () => ({ id: 'tsk_deal_1', title: 'Call Bob' });

export const v1Item = () => ({
  id: 'tsk_01hq3v',
  title: 'Send the signed contract back',
  boardName: 'Operations',
  boardId: 'brd_ops',
  listName: 'To do',
  listId: 'lst_todo',
  dateCreated: '2026-01-05T10:00:00.000Z',
  dueDate: null,
  notes: null,
  firstThread: { title: 'Contract', received: '2026-01-05T09:00:00.000Z', from: 'bob@stone.test' },
  completed: false,
  assignedTo: '',
  assignedToEmail: '',
});

/** Parses and fails the test with zod's own explanation if the input is rejected. */
export function parseOk<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    expect.fail(`expected the input to parse, got: ${JSON.stringify(result.error.issues)}`);
  }
  return result.data;
}

/** The issues of a rejected input; fails the test if the input parses. */
export function issuesOf(schema: z.ZodType, input: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(input);
  if (result.success) expect.fail(`expected the input to be rejected, got: ${JSON.stringify(result.data)}`);
  return result.error.issues;
}

/** The paths of a rejected input's issues, dotted (`custom_fields.0.value`; the root is `''`). */
export function rejectedPaths(schema: z.ZodType, input: unknown): string[] {
  return issuesOf(schema, input).map((issue) => issue.path.join('.'));
}

/** A copy of `object` without `key`. */
export function without<T extends object>(object: T, key: keyof T): Partial<T> {
  const copy: Partial<T> = { ...object };
  delete copy[key];
  return copy;
}
