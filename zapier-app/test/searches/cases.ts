import * as resources from '../../src/creates/resources.ts';
import type { OperationCase } from '../creates/cases.ts';
import { envelope } from '../creates/support.ts';

/** One happy path per search (and the paging of find_task): inputs, the exact requests, the results. */

// Without custom field values: a task with them adds one read of its board's fields (their labels).
const task = { ...resources.task.sample, custom_fields: [] };
const thread = resources.thread.sample;
const contact = resources.contact.sample;
const company = resources.company.sample;

export const SEARCH_CASES: OperationCase[] = [
  {
    kind: 'searches',
    key: 'find_task',
    name: 'in a list: the exact title only (any case, spaces around it ignored)',
    inputData: { list_id: 'lst_todo', title: ' call bob ' },
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks?list_id=lst_todo&limit=200',
        reply: envelope(
          [
            { ...task, id: 'tsk_a', title: 'Call Bob again' },
            { ...task, id: 'tsk_b', title: 'Write to Carol' },
            { ...task, id: 'tsk_c', title: 'Call Bob' },
          ],
          { next_cursor: null, has_more: false },
        ),
      },
    ],
    output: [{ ...task, id: 'tsk_c', title: 'Call Bob', match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_task',
    name: 'a title that only partly matches: nothing, unless Allow Partial Match',
    inputData: { list_id: 'lst_todo', title: 'Plan Q2' },
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks?list_id=lst_todo&limit=200',
        reply: envelope([{ ...task, id: 'tsk_a', title: 'Plan Q2 roadmap review' }], {
          next_cursor: null,
          has_more: false,
        }),
      },
    ],
    output: [],
  },
  {
    kind: 'searches',
    key: 'find_task',
    name: 'with Allow Partial Match and no exact title: the partial ones, said to be partial',
    inputData: { list_id: 'lst_todo', title: 'Plan Q2', allow_partial: 'true' },
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks?list_id=lst_todo&limit=200',
        reply: envelope(
          [
            { ...task, id: 'tsk_a', title: 'Plan Q2 roadmap review' },
            { ...task, id: 'tsk_b', title: 'Plan Q3' },
          ],
          { next_cursor: null, has_more: false },
        ),
      },
    ],
    output: [{ ...task, id: 'tsk_a', title: 'Plan Q2 roadmap review', match_type: 'partial' }],
  },
  {
    kind: 'searches',
    key: 'find_task',
    name: 'on a board, across pages until an exact title',
    moreRequests: 'a board bigger than one page is read page by page until an exact title',
    inputData: { board_id: 'brd_roadmap', title: 'Call Bob', allow_partial: 'yes' },
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks?board_id=brd_roadmap&limit=200',
        reply: envelope([{ ...task, id: 'tsk_a', title: 'Call Bob again' }], {
          next_cursor: 'c2',
          has_more: true,
        }),
      },
      {
        method: 'GET',
        path: '/v2/tasks?board_id=brd_roadmap&limit=200&cursor=c2',
        reply: envelope([{ ...task, id: 'tsk_c', title: 'call bob' }], { next_cursor: 'c3', has_more: true }),
      },
    ],
    // An exact title exists: the partial one is not offered, even with Allow Partial Match.
    output: [{ ...task, id: 'tsk_c', title: 'call bob', match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_task_by_id',
    inputData: { task_id: 'tsk_gone,tsk_c' },
    moreRequests: 'a mapped list of IDs is tried in order until one exists',
    requests: [
      {
        method: 'GET',
        path: '/v2/tasks/tsk_gone',
        status: 404,
        reply: { error: { code: 'not_found', message: 'task tsk_gone was not found', request_id: 'r' } },
      },
      { method: 'GET', path: '/v2/tasks/tsk_c', reply: envelope({ ...task, id: 'tsk_c' }) },
    ],
    output: [{ ...task, id: 'tsk_c' }],
  },
  {
    kind: 'searches',
    key: 'find_task_by_id',
    name: "the thread's task",
    moreRequests: "the thread's linked tasks, then the first one",
    inputData: { thread_id: thread.thread_id },
    requests: [
      {
        method: 'GET',
        path: `/v2/email-threads/${thread.thread_id}`,
        reply: envelope({ ...thread, linked_tasks: [{ id: 'tsk_c', title: 'Call Bob' }] }),
      },
      { method: 'GET', path: '/v2/tasks/tsk_c', reply: envelope({ ...task, id: 'tsk_c' }) },
    ],
    output: [{ ...task, id: 'tsk_c' }],
  },
  {
    kind: 'searches',
    key: 'find_thread',
    inputData: { q: 'from:bob@stone.test is:unread' },
    requests: [
      {
        method: 'GET',
        path: `/v2/email-threads?q=${encodeURIComponent('from:bob@stone.test is:unread').replace(/%20/g, '+')}&limit=10`,
        reply: envelope([thread], { next_cursor: null, has_more: false }),
      },
    ],
    output: [thread],
  },
  {
    kind: 'searches',
    key: 'find_contact',
    name: 'by exact email',
    inputData: { team_id: 'team_acme', q: 'BOB@stone.test' },
    requests: [
      {
        method: 'GET',
        path: '/v2/contacts?team_id=team_acme&q=BOB%40stone.test&limit=100',
        reply: envelope([{ ...contact, id: 'con_bobby', name: 'Bobby Stone', contact_info: [] }, contact], {
          next_cursor: null,
          has_more: false,
        }),
      },
    ],
    output: [{ ...contact, match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_company',
    name: 'by exact domain',
    inputData: { team_id: 'team_acme', q: 'stone.test' },
    requests: [
      {
        method: 'GET',
        path: '/v2/companies?team_id=team_acme&q=stone.test&limit=100',
        reply: envelope([company], { next_cursor: null, has_more: false }),
      },
    ],
    output: [{ ...company, match_type: 'exact' }],
  },
  {
    kind: 'searches',
    key: 'find_company',
    name: 'a partial name without Allow Partial Match: nothing',
    inputData: { team_id: 'team_acme', q: 'Stone' },
    requests: [
      {
        method: 'GET',
        path: '/v2/companies?team_id=team_acme&q=Stone&limit=100',
        reply: envelope([company], { next_cursor: null, has_more: false }),
      },
    ],
    output: [],
  },
];
