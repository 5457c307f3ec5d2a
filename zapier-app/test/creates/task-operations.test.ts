/**
 * The wire shapes of archive_task, delete_task, Create Task with the board's custom fields, and Find Board
 * Member: the exact requests (body and Idempotency-Key), the output, and every service error as a message
 * that says what to do (the shared operation suite).
 */
import nock from 'nock';
import { afterEach, beforeAll } from 'vitest';
import * as resources from '../../src/creates/resources.ts';
import { idempotencyKey } from '../../src/lib/idempotency.ts';
import type { OperationCase } from './cases.ts';
import { operationSuite } from './suite.ts';
import { envelope } from './support.ts';

beforeAll(() => {
  nock.disableNetConnect();
});

afterEach(() => {
  nock.cleanAll();
});

const task = resources.task.sample;
/** The key a step sends for `inputs` (and, for a step's second write, its variant). */
const key = (operation: string, inputs: Record<string, unknown>, variant?: string) =>
  idempotencyKey(operation, variant === undefined ? inputs : { ...inputs, '#variant': variant });

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
const members = [
  { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
  { user_id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
  { user_id: 'usr_bobby', email: 'bobby@example.com', display_name: null },
];

const CASES: OperationCase[] = [
  {
    kind: 'creates',
    key: 'archive_task',
    inputData: { task_id: 'tsk_1' },
    requests: [
      {
        method: 'POST',
        path: '/v2/tasks/tsk_1/archive',
        idempotencyKey: key('archive_task', { task_id: 'tsk_1' }),
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
        idempotencyKey: key('delete_task', { board_id: 'brd_roadmap', task_id: 'tsk_1' }),
        reply: envelope({ id: 'tsk_1', deleted: true }),
      },
    ],
    output: { id: 'tsk_1', deleted: true },
  },
  {
    kind: 'creates',
    key: 'create_task',
    name: 'with custom fields, their types handed back by Zapier',
    moreRequests: 'the v2 create takes no custom fields: they are set on the new task right after',
    inputData: createInputs,
    meta: {
      inputFields: {
        custom_field__cf_priority: { field_type: 'tag' },
        custom_field__cf_estimate: { field_type: 'number' },
        custom_field__cf_note: { field_type: 'text' },
      },
    },
    requests: [
      {
        method: 'POST',
        path: '/v2/tasks',
        body: { list_id: 'lst_todo', title: 'Send Bob the roof quote' },
        idempotencyKey: key('create_task', createInputs),
        reply: envelope({ ...task, id: 'tsk_new', custom_fields: [] }),
      },
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_new',
        body: { custom_fields: customFields },
        idempotencyKey: key('create_task', createInputs, 'custom_fields'),
        reply: envelope({ ...task, id: 'tsk_new', custom_fields: customFields }),
      },
    ],
    output: { ...task, id: 'tsk_new', custom_fields: customFields },
  },
  {
    kind: 'creates',
    key: 'create_task',
    name: 'with a custom field mapped by its option label: reads the board first',
    moreRequests: 'without the field types, the board is read before anything is written',
    inputData: { ...createInputs, custom_field__cf_priority: 'high' },
    requests: [
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/custom-fields?limit=200',
        reply: envelope(
          [
            {
              id: 'cf_priority',
              name: 'Priority',
              type: 'tag',
              ai: false,
              display_on_card: true,
              options: [{ id: 'opt_high', label: 'High' }],
            },
            {
              id: 'cf_estimate',
              name: 'Estimate',
              type: 'number',
              ai: false,
              display_on_card: false,
              options: null,
            },
            { id: 'cf_note', name: 'Note', type: 'text', ai: false, display_on_card: false, options: null },
          ],
          { next_cursor: null, has_more: false },
        ),
      },
      {
        method: 'POST',
        path: '/v2/tasks',
        body: { list_id: 'lst_todo', title: 'Send Bob the roof quote' },
        idempotencyKey: key('create_task', { ...createInputs, custom_field__cf_priority: 'high' }),
        reply: envelope({ ...task, id: 'tsk_new', custom_fields: [] }),
      },
      {
        method: 'PATCH',
        path: '/v2/tasks/tsk_new',
        body: { custom_fields: customFields },
        idempotencyKey: key(
          'create_task',
          { ...createInputs, custom_field__cf_priority: 'high' },
          'custom_fields',
        ),
        reply: envelope({ ...task, id: 'tsk_new', custom_fields: customFields }),
      },
    ],
    output: { ...task, id: 'tsk_new', custom_fields: customFields },
  },
  {
    kind: 'searches',
    key: 'find_member',
    inputData: { board_id: 'brd_roadmap', email: 'BOB@example.com' },
    requests: [
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/members?limit=100',
        reply: envelope(members, { next_cursor: null, has_more: false }),
      },
    ],
    // The exact email (any case) first, then the emails and names containing it.
    output: [{ id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' }],
  },
  {
    kind: 'searches',
    key: 'find_member',
    name: 'by part of a name or email',
    inputData: { board_id: 'brd_roadmap', email: 'bob' },
    requests: [
      {
        method: 'GET',
        path: '/v2/boards/brd_roadmap/members?limit=100',
        reply: envelope(members, { next_cursor: null, has_more: false }),
      },
    ],
    output: [
      { id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
      { id: 'usr_bobby', email: 'bobby@example.com', display_name: null },
    ],
  },
];

operationSuite(CASES);
