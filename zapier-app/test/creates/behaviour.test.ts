import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as resources from '../../src/creates/resources.ts';
import { zapierMessage } from '../helpers/auth.ts';
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
      /To: \\?"bob\\?" is not an email address: use bob@example.com or Bob Stone <bob@example.com>/,
    ],
    ...(['send_email', 'reply_to_thread', 'create_draft'] as const).flatMap((key) =>
      ['', '   ', '\n\t'].map(
        (body) =>
          [
            `a blank body (${JSON.stringify(body)}) mapped into ${key}`,
            'creates',
            key,
            { to: 'bob@stone.test', subject: 'Hi', thread_id: '18c2f0a1b2c3d4e5', body },
            /^.*Body: is required, but it is empty \(a value mapped from an earlier step may be blank\)/,
          ] as [string, 'creates', string, Record<string, unknown>, RegExp],
      ),
    ),
    [
      'a blank title mapped into Find Task',
      'searches',
      'find_task',
      { list_id: 'lst_todo', title: ' ' },
      /Title: is required, but it is empty/,
    ],
    [
      'a blank email mapped into Assign Task',
      'creates',
      'assign_task',
      { task_id: 'tsk_1', assignee_email: '  ' },
      /Assignee: is required, but it is empty/,
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

  it('addresses as triggers and mail apps write them: Name <email>, lists of them, one per line', async () => {
    const service = mockService([
      {
        method: 'POST',
        path: '/v2/emails',
        body: {
          to: ['bob@stone.test', 'carol@stone.test', 'dan@stone.test'],
          cc: ['eve@stone.test'],
          subject: 'Hi',
          body: 'Hi',
          is_html: false,
        },
        idempotencyKey: runKeyOf('send_email'),
        reply: envelope({ message_id: '18c2f0a1b2c3d4fa', thread_id: '18c2f0a1b2c3d4fb' }),
      },
    ]);
    await perform('creates', 'send_email', {
      to: ['Bob Stone <bob@stone.test>, "Stone, Carol" <carol@stone.test>', 'dan@stone.test'],
      cc: 'mailto:eve@stone.test',
      subject: 'Hi',
      body: 'Hi',
    });
    service.done();
  });

  it('assigns by a member’s exact name or user ID (one read of the members), and refuses a name two share', async () => {
    const members = envelope(
      [
        { user_id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
        { user_id: 'usr_bob2', email: 'bob@stone.test', display_name: 'Bob Stone' },
        { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
      ],
      { next_cursor: null, has_more: false },
    );
    const readMembers = {
      method: 'GET' as const,
      path: '/v2/boards/brd_roadmap/members?limit=100',
      reply: members,
    };
    for (const [given, email] of [
      [' ada lovelace ', 'ada@example.com'],
      ['usr_bob2', 'bob@stone.test'],
    ] as const) {
      const service = mockService([
        readMembers,
        {
          method: 'POST',
          path: '/api/v1/items/assignTask',
          body: { itemId: 'tsk_1', assigneeEmail: email },
          idempotencyKey: runKeyOf('assign_task'),
          reply: { success: true },
        },
      ]);
      expect(
        await perform('creates', 'assign_task', {
          board_id: 'brd_roadmap',
          task_id: 'tsk_1',
          assignee_email: given,
        }),
      ).toEqual({ id: 'tsk_1', assignee_email: email });
      service.done();
    }
    // Without a board, the task's board is read first; a name two members share is refused, nothing written.
    const service = mockService([
      { method: 'GET', path: '/v2/tasks/tsk_1', reply: envelope({ ...resources.task.sample, id: 'tsk_1' }) },
      readMembers,
    ]);
    const error = await perform('creates', 'assign_task', {
      task_id: 'tsk_1',
      assignee_email: 'Bob Stone',
    }).catch((caught: Error) => caught);
    expect(zapierMessage(error)).toBe(
      'Assignee: "Bob Stone" is the name of 2 members of the task\'s board: Bob Stone <bob@example.com>, Bob Stone <bob@stone.test>. Use the email of the one you mean.',
    );
    service.done();
    expect(service.count()).toBe(2);
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
        meta: { field_type: 'tag', label: 'Priority' },
      }),
      expect.objectContaining({
        key: 'custom_field__cf_estimate',
        type: 'number',
        meta: { field_type: 'number', label: 'Estimate' },
      }),
      expect.objectContaining({
        key: 'custom_field__cf_done',
        type: 'boolean',
        meta: { field_type: 'checkbox', label: 'Signed off' },
      }),
      expect.objectContaining({ key: 'custom_field__cf_note', meta: { field_type: 'text', label: 'Note' } }),
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

  it('offers none (and asks nothing) before a board is chosen, and says to choose one', async () => {
    const service = mockService([]);
    const fields = await inputFields('set_custom_fields', {});
    expect(fields.some((field) => String(field['key']).startsWith('custom_field__'))).toBe(false);
    expect(fields.find((field) => field['key'] === 'custom_fields_note')).toMatchObject({
      type: 'copy',
      helpText: 'Choose a Board above: its custom fields appear here, one input each.',
    });
    expect(service.count()).toBe(0);
  });

  it.each([
    ['no custom fields', [], 'This board has no custom fields.'],
    [
      'only AI-managed ones',
      BOARD_CUSTOM_FIELDS.filter((field) => field.ai),
      'This board\'s custom fields ("Reply status") are managed by the AI: the service sets them itself, so no step can.',
    ],
  ])('a board with %s: the empty section says why', async (_what, boardFields, why) => {
    mockService([
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(boardFields, { next_cursor: null, has_more: false }),
      },
    ]);
    const fields = await inputFields('set_custom_fields', { board_id: 'brd_roadmap' });
    expect(fields.filter((field) => String(field['key']).startsWith('custom_field'))).toEqual([
      { key: 'custom_fields_note', label: 'Custom Fields', type: 'copy', helpText: why },
    ]);
  });

  it('a field of another board than the task’s is named by its label, with what to do', async () => {
    mockService([
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_1',
        body: { custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }] },
        idempotencyKey: runKeyOf('set_custom_fields'),
        status: 404,
        reply: errorBody('not_found', 'custom field cf_priority was not found'),
      },
    ]);
    const error = await perform(
      'creates',
      'set_custom_fields',
      { board_id: 'brd_other', task_id: 'tsk_1', custom_field__cf_priority: ['opt_high'] },
      { inputFields: { custom_field__cf_priority: { field_type: 'tag', label: 'Priority' } } },
    ).catch((caught: Error) => caught);
    expect(zapierMessage(error)).toBe(
      "Priority: is a custom field of the Board chosen in this step, but the task is on another board: choose the task's own board in Board, so that its fields appear here",
    );
  });

  it('a value the service refuses is named by the field’s label, never a label made of its key', async () => {
    mockService([
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_1',
        body: { custom_fields: [{ field_id: 'cf_note', value: 'x' }] },
        idempotencyKey: runKeyOf('set_custom_fields'),
        status: 400,
        reply: errorBody('validation_error', 'invalid custom_fields', [
          { path: 'custom_fields[0].value', message: 'at most 1,024 characters' },
        ]),
      },
    ]);
    const inputs = { board_id: 'brd_roadmap', task_id: 'tsk_1', custom_field__cf_note: 'x' };
    const error = await perform('creates', 'set_custom_fields', inputs, {
      inputFields: { custom_field__cf_note: { field_type: 'text', label: 'Note' } },
    }).catch((caught: Error) => caught);
    expect(zapierMessage(error)).toBe('Note: at most 1,024 characters');
    // Without the field's label (a step saved by an older version): its ID, not "Custom Field Cf Note".
    mockService([
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope([], { next_cursor: null, has_more: false }),
      },
    ]);
    const unknown = await perform('creates', 'set_custom_fields', inputs).catch((caught: Error) => caught);
    expect(zapierMessage(unknown)).toBe(
      'Custom field `cf_note`: is not a custom field of the chosen Board: choose the Board again, so that its own fields appear here',
    );
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
