import * as resources from '../../src/creates/resources.ts';
import type { OperationCase } from './cases.ts';
import { envelope, runKeyOf } from './support.ts';

/**
 * One happy path per case of archive_task, delete_task, Create Task with the board's custom fields and Find
 * Board Member: the inputs, the exact requests (body and Idempotency-Key) and the output. The operation
 * suite and the requests benchmark both read this table.
 */

// Without custom field values unless a case sets them (a task with them adds a read of their labels).
const task = { ...resources.task.sample, custom_fields: [] };
const boardFields = [
  {
    id: 'cf_priority',
    name: 'Priority',
    type: 'tag',
    ai: false,
    display_on_card: true,
    options: [{ id: 'opt_high', label: 'High' }],
  },
  { id: 'cf_estimate', name: 'Estimate', type: 'number', ai: false, display_on_card: false, options: null },
  { id: 'cf_note', name: 'Note', type: 'text', ai: false, display_on_card: false, options: null },
];
const readBoardFields = {
  method: 'GET' as const,
  path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
  reply: envelope(boardFields, { next_cursor: null, has_more: false }),
};

const createInputs = {
  board_id: 'brd_roadmap',
  list_id: 'lst_todo',
  title: 'Send Bob the roof quote',
  custom_field__cf_priority: ['opt_high'],
  custom_field__cf_estimate: '3',
  custom_field__cf_note: '',
};
const customFields = [
  { field_id: 'cf_priority', value: ['opt_high'] },
  { field_id: 'cf_estimate', value: 3 },
];
/** The answer as the step outputs it: each field named, option fields with their labels. */
const labelled = [
  { field_id: 'cf_priority', value: ['opt_high'], name: 'Priority', labels: ['High'] },
  { field_id: 'cf_estimate', value: 3, name: 'Estimate' },
];
/** The list check of Create Task (a chosen list must be on the chosen board). */
const listOnBoard = {
  method: 'GET' as const,
  path: '/v2/boards/brd_roadmap/lists?limit=200',
  reply: envelope([{ id: 'lst_todo', name: 'To do', board_id: 'brd_roadmap' }], {
    next_cursor: null,
    has_more: false,
  }),
};
const createRequests = [
  {
    method: 'POST' as const,
    path: '/v2/tasks',
    body: { list_id: 'lst_todo', title: 'Send Bob the roof quote' },
    idempotencyKey: runKeyOf('create_task'),
    reply: envelope({ ...task, id: 'tsk_new' }),
  },
  {
    method: 'PATCH' as const,
    path: '/v2/tasks/tsk_new',
    body: { custom_fields: customFields },
    idempotencyKey: runKeyOf('create_task', 'custom_fields'),
    reply: envelope({ ...task, id: 'tsk_new', custom_fields: customFields }),
  },
];
const members = [
  { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
  { user_id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
  { user_id: 'usr_bobby', email: 'bobby@example.com', display_name: null },
];
const readMembers = {
  method: 'GET' as const,
  path: '/v2/boards/brd_roadmap/members?limit=100',
  reply: envelope(members, { next_cursor: null, has_more: false }),
};

export const TASK_CASES: OperationCase[] = [
  {
    kind: 'creates',
    key: 'archive_task',
    inputData: { task_id: 'tsk_1' },
    requests: [
      {
        method: 'POST',
        path: '/v2/tasks/tsk_1/archive',
        idempotencyKey: runKeyOf('archive_task'),
        reply: envelope({ ...task, id: 'tsk_1' }),
      },
    ],
    output: { ...task, id: 'tsk_1' },
  },
  {
    kind: 'creates',
    key: 'delete_task',
    inputData: { board_id: 'brd_roadmap', task_id: 'tsk_1' },
    requests: [
      {
        method: 'DELETE',
        path: '/v2/tasks/tsk_1',
        idempotencyKey: runKeyOf('delete_task'),
        reply: envelope({ id: 'tsk_1', deleted: true }),
      },
    ],
    output: { id: 'tsk_1', deleted: true },
  },
  {
    kind: 'creates',
    key: 'create_task',
    name: 'with custom fields, their types handed back by Zapier',
    moreRequests:
      'the list is checked against the board; the v2 create takes no custom fields, so they are set right after; the answer is labelled',
    inputData: createInputs,
    meta: {
      inputFields: {
        custom_field__cf_priority: { field_type: 'tag' },
        custom_field__cf_estimate: { field_type: 'number' },
        custom_field__cf_note: { field_type: 'text' },
      },
    },
    requests: [listOnBoard, ...createRequests, readBoardFields],
    output: { ...task, id: 'tsk_new', custom_fields: labelled },
  },
  {
    kind: 'creates',
    key: 'create_task',
    name: 'with a custom field mapped by its option label: reads the board first',
    moreRequests:
      'without the field types, the board is read before anything is written (and labels the answer)',
    inputData: { ...createInputs, custom_field__cf_priority: 'high' },
    requests: [listOnBoard, readBoardFields, ...createRequests],
    output: { ...task, id: 'tsk_new', custom_fields: labelled },
  },
  {
    kind: 'searches',
    key: 'find_member',
    inputData: { board_id: 'brd_roadmap', email: 'BOB@example.com' },
    requests: [readMembers],
    // The exact email (any case) only, though another member's email contains it.
    output: [{ id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone', match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_member',
    name: 'by exact name',
    inputData: { board_id: 'brd_roadmap', email: ' bob stone ' },
    requests: [readMembers],
    output: [{ id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone', match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_member',
    name: 'by part of a name or email, only with Allow Partial Match',
    inputData: { board_id: 'brd_roadmap', email: 'bob', allow_partial: 'yes' },
    requests: [readMembers],
    output: [
      { id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone', match_type: 'partial' },
      { id: 'usr_bobby', email: 'bobby@example.com', display_name: null, match_type: 'partial' },
    ],
  },
  {
    kind: 'searches',
    key: 'find_member',
    name: 'by part of a name, without Allow Partial Match: nobody',
    inputData: { board_id: 'brd_roadmap', email: 'bob' },
    requests: [readMembers],
    output: [],
  },
];
