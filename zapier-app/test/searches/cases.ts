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
    name: 'in a list: the exact title first',
    inputData: { list_id: 'lst_todo', title: 'call bob' },
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
    output: [
      { ...task, id: 'tsk_c', title: 'Call Bob' },
      { ...task, id: 'tsk_a', title: 'Call Bob again' },
    ],
  },
  {
    kind: 'searches',
    key: 'find_task',
    name: 'on a board, across pages until an exact title',
    moreRequests: 'a board bigger than one page is read page by page until an exact title',
    inputData: { board_id: 'brd_roadmap', title: 'Call Bob' },
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
    output: [
      { ...task, id: 'tsk_c', title: 'call bob' },
      { ...task, id: 'tsk_a', title: 'Call Bob again' },
    ],
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
    inputData: { team_id: 'team_acme', q: 'Bob' },
    requests: [
      {
        method: 'GET',
        path: '/v2/contacts?team_id=team_acme&q=Bob&limit=10',
        reply: envelope([contact], { next_cursor: null, has_more: false }),
      },
    ],
    output: [contact],
  },
  {
    kind: 'searches',
    key: 'find_company',
    inputData: { team_id: 'team_acme', q: 'stone.test' },
    requests: [
      {
        method: 'GET',
        path: '/v2/companies?team_id=team_acme&q=stone.test&limit=10',
        reply: envelope([company], { next_cursor: null, has_more: false }),
      },
    ],
    output: [company],
  },
];
