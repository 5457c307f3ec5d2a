import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_CUSTOM_FIELDS } from './cases.ts';
import {
  appTester,
  authData,
  envelope,
  errorBody,
  mockService,
  operationOf,
  perform,
  runKeyOf,
} from './support.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

type Fields = Array<Record<string, unknown>>;

function inputFields(key: string, inputData: Record<string, unknown>): Promise<Fields> {
  return appTester(operationOf('creates', key).inputFields as never, { authData, inputData });
}

describe('bad input is refused with a message naming the field, and nothing is sent', () => {
  const cases: Array<[string, 'creates' | 'searches', string, Record<string, unknown>, RegExp]> = [
    [
      'a blank title',
      'creates',
      'create_task',
      { list_id: 'lst_todo', title: '   ' },
      /^.*Title: is required/,
    ],
    [
      'a malformed due date',
      'creates',
      'create_task',
      { list_id: 'lst_todo', title: 'A', due_at: 'soon' },
      /Due Date: use a date like 2026-03-01 or 'next Friday 5pm'/,
    ],
    [
      'an unknown colour',
      'creates',
      'set_task_color',
      { task_id: 'tsk_1', shade: 'octarine' },
      /Color: must be one of none, yellow/,
    ],
    [
      'a reorder with no place',
      'creates',
      'reorder_task',
      { task_id: 'tsk_1' },
      /Fill in Place Below Task or Position/,
    ],
    [
      'a read state that is not yes or no',
      'creates',
      'set_read_state',
      { thread_id: 'abc123', read: 'maybe' },
      /Mark As Read: must be yes or no, not \\?"maybe\\?"/,
    ],
    [
      'a thread id that is not a mailbox id',
      'creates',
      'create_task_from_thread',
      { list_id: 'lst_todo', thread_id: 'not hex!' },
      /Email Thread: must be a hex mailbox id/,
    ],
    [
      'a new draft without a subject',
      'creates',
      'create_draft',
      { to: 'bob@stone.test', body: 'Hi' },
      /Subject: is required/,
    ],
    [
      'a new draft without recipients',
      'creates',
      'create_draft',
      { subject: 'Hi', body: 'Hi' },
      /To: at least one recipient is required/,
    ],
    [
      'a recipient that is not an address',
      'creates',
      'send_email',
      { to: 'bob', subject: 'Hi', body: 'Hi' },
      /To: use an email address like bob@example.com/,
    ],
    [
      'labels with nothing to add or remove',
      'creates',
      'change_labels',
      { thread_id: 'abc123' },
      /at least one label id/i,
    ],
    [
      'an update with nothing to change',
      'creates',
      'update_company',
      { company_id: 'cmp_stone' },
      /at least one field to change/i,
    ],
    [
      'custom fields with no value',
      'creates',
      'set_custom_fields',
      { board_id: 'brd_roadmap', task_id: 'tsk_1', custom_field__cf_note: '' },
      /fill in at least one custom field/,
    ],
    [
      'a task search with neither list nor board',
      'searches',
      'find_task',
      { title: 'Call Bob' },
      /Board: is required/,
    ],
  ];

  it.each(cases)('%s', async (_, kind, key, inputData, message) => {
    const service = mockService([]);
    const meta = { inputFields: { custom_field__cf_note: { field_type: 'text' } } };
    await expect(perform(kind, key, inputData, meta)).rejects.toThrow(message);
    service.done();
    expect(service.count()).toBe(0);
  });

  it('a number field given text is refused by the field’s name, before the write', async () => {
    const service = mockService([
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(BOARD_CUSTOM_FIELDS, { next_cursor: null, has_more: false }),
      },
    ]);
    await expect(
      perform('creates', 'set_custom_fields', {
        board_id: 'brd_roadmap',
        task_id: 'tsk_1',
        custom_field__cf_estimate: 'three',
      }),
    ).rejects.toThrow(/Estimate: \\?"three\\?" is not a number/);
    service.done();
    expect(service.count()).toBe(1);
  });
});

describe('set_custom_fields: the chosen board’s fields as inputs', () => {
  it('offers every field but the AI-managed one, options as choices, each with its type as meta', async () => {
    const service = mockService([
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(BOARD_CUSTOM_FIELDS, { next_cursor: null, has_more: false }),
      },
    ]);
    const fields = await inputFields('set_custom_fields', { board_id: 'brd_roadmap' });
    const dynamic = fields.filter((field) => String(field['key']).startsWith('custom_field__'));
    expect(dynamic).toEqual([
      expect.objectContaining({
        key: 'custom_field__cf_priority',
        label: 'Priority',
        list: true,
        choices: [
          { value: 'opt_high', label: 'High', sample: 'opt_high' },
          { value: 'opt_low', label: 'Low', sample: 'opt_low' },
        ],
        meta: { field_type: 'tag' },
      }),
      expect.objectContaining({
        key: 'custom_field__cf_estimate',
        type: 'number',
        meta: { field_type: 'number' },
      }),
      expect.objectContaining({
        key: 'custom_field__cf_done',
        type: 'boolean',
        meta: { field_type: 'checkbox' },
      }),
      expect.objectContaining({ key: 'custom_field__cf_note', meta: { field_type: 'text' } }),
    ]);
    for (const field of dynamic) expect(String(field['helpText'])).toMatch(/e\.g\./);
    service.done();
  });

  it('says what to do when the board cannot be read (an unpaid team)', async () => {
    mockService([
      {
        method: 'GET',
        path: '/v2/boards/brd_garage/custom-fields?limit=200',
        status: 402,
        reply: errorBody('subscription_required', 'the team has no paid subscription'),
      },
    ]);
    await expect(inputFields('set_custom_fields', { board_id: 'brd_garage' })).rejects.toThrow(
      /no active paid subscription/,
    );
  });

  it('offers none (and asks nothing) before a board is chosen', async () => {
    const service = mockService([]);
    const fields = await inputFields('set_custom_fields', {});
    expect(fields.some((field) => String(field['key']).startsWith('custom_field__'))).toBe(false);
    expect(service.count()).toBe(0);
  });
});

describe('change_labels: the mailbox’s labels as choices', () => {
  it('offers the labels to add and remove', async () => {
    mockService([
      {
        method: 'GET',
        path: '/v2/email-labels',
        reply: envelope({
          labels: [
            { id: 'INBOX', name: 'Inbox', type: 'system' },
            { id: 'Label_1', name: 'Clients', type: 'user' },
          ],
        }),
      },
    ]);
    const fields = await inputFields('change_labels', {});
    const add = fields.find((field) => field['key'] === 'add');
    expect(add?.['choices']).toEqual([
      { value: 'INBOX', label: 'Inbox', sample: 'INBOX' },
      { value: 'Label_1', label: 'Clients', sample: 'Label_1' },
    ]);
  });

  it('still takes typed label IDs when the labels cannot be read', async () => {
    mockService([
      {
        method: 'GET',
        path: '/v2/email-labels',
        status: 409,
        reply: errorBody('mailbox_not_connected', 'no mailbox'),
      },
    ]);
    const fields = await inputFields('change_labels', {});
    expect(fields.find((field) => field['key'] === 'remove')).toMatchObject({ list: true });
    expect(fields.find((field) => field['key'] === 'remove')?.['choices']).toBeUndefined();
  });
});

describe('reorder_task when a concurrent reorder wins', () => {
  const inputs = { task_id: 'tsk_1', position: 'top' };
  const attempt = (key: RegExp, persisted: boolean) => ({
    method: 'POST' as const,
    path: '/v2/tasks/tsk_1/reorder',
    body: { position: 'top' },
    idempotencyKey: key,
    reply: envelope({ id: 'tsk_1', after_task_id: null, position_index: 0, persisted }),
  });
  const first = runKeyOf('reorder_task');
  const retry = runKeyOf('reorder_task', 'retry');

  it('tries once more under its own key (a replay of the first would repeat “not stored”)', async () => {
    const service = mockService([attempt(first, false), attempt(retry, true)]);
    expect(await perform('creates', 'reorder_task', inputs)).toMatchObject({ persisted: true });
    service.done();
  });

  it('says to run the step again when neither attempt was stored', async () => {
    const service = mockService([attempt(first, false), attempt(retry, false)]);
    await expect(perform('creates', 'reorder_task', inputs)).rejects.toThrow(
      /new position was not stored.*again/,
    );
    service.done();
  });
});

describe('unassign_task on a task nobody is assigned to', () => {
  it('reads the task, sends nothing more, and says nobody was unassigned', async () => {
    const service = mockService([
      {
        method: 'GET',
        path: '/v2/tasks/tsk_1',
        reply: envelope({
          id: 'tsk_1',
          content_type: 'task',
          title: 'A',
          notes: null,
          board_id: 'brd_roadmap',
          board_name: 'Roadmap',
          list_id: 'lst_todo',
          list_name: 'To do',
          completed: false,
          shade: 'none',
          custom_fields: [],
          due_at: null,
          created_at: null,
          thread_ids: [],
          contact_id: null,
          deal: null,
          assignee: null,
          first_thread: null,
        }),
      },
    ]);
    expect(await perform('creates', 'unassign_task', { task_id: 'tsk_1' })).toEqual({
      id: 'tsk_1',
      assignee_email: null,
      unassigned_email: null,
    });
    service.done();
    expect(service.count()).toBe(1);
  });
});
