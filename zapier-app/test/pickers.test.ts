/**
 * The pickers' wire shapes: the hidden dropdowns `tasks`, `contacts`, `companies` and `members` read exactly
 * the requests below (with the connection's token) and give the items the
 * Zap editor shows; without the choice they depend on, they say what to choose.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import * as resources from '../src/creates/resources.ts';
import { appTester, authData, FRESH_TOKEN, ORIGIN, rejection, zapierMessage } from './helpers/auth.ts';
import { strictNock } from './helpers/nock.ts';
import { triggerOperation } from './helpers/triggers.ts';

strictNock();

const op = (key: string) => triggerOperation(key);

const page = (data: unknown[], next: string | null = null) => ({
  data,
  meta: { request_id: 'r', pagination: { next_cursor: next, has_more: next !== null, limit: 100 } },
});
const service = () => nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } });
const task = resources.task.sample;
const paid = { plan: 'pro', status: 'active', paid: true };

describe('tasks', () => {
  it('lists the chosen list’s tasks by title (the list wins over the board)', async () => {
    service()
      .get('/v2/tasks')
      .query({ list_id: 'lst_todo', limit: '100' })
      .reply(200, page([{ ...task, id: 'tsk_a', title: 'Call Bob' }]));
    // The action's own inputs reach the dropdown.
    const tasks = await appTester(op('tasks'), {
      authData: authData(),
      inputData: { board_id: 'brd_roadmap', list_id: 'lst_todo' },
      meta: { page: 0 },
    });
    expect(tasks).toEqual([{ id: 'tsk_a', title: 'Call Bob', list_name: 'To do', completed: false }]);
  });

  it('lists the board’s tasks when no list is chosen', async () => {
    service()
      .get('/v2/tasks')
      .query({ board_id: 'brd_roadmap', limit: '100' })
      .reply(200, page([{ ...task, id: 'tsk_a', title: 'Call Bob' }]));
    const tasks = await appTester(op('tasks'), {
      authData: authData(),
      inputData: { board_id: 'brd_roadmap', task_id: '' },
      meta: { page: 0 },
    });
    expect(tasks).toEqual([{ id: 'tsk_a', title: 'Call Bob', list_name: 'To do', completed: false }]);
  });

  it('asks for a board first, naming the other ways to give a task', async () => {
    const error = await rejection(
      appTester(op('tasks'), { authData: authData(), inputData: {}, meta: { page: 0 } }),
    );
    expect(zapierMessage(error)).toMatch(/Choose a board \(or a list\) first.*Find Task/);
  });
});

describe('contacts and companies', () => {
  const contact = resources.contact.sample;
  const company = resources.company.sample;

  it('contacts lists the chosen team’s contacts with their email and company', async () => {
    service()
      .get('/v2/contacts')
      .query({ team_id: 'team_acme', limit: '100' })
      .reply(200, page([contact]));
    const contacts = await appTester(op('contacts'), {
      authData: authData(),
      inputData: { team_id: 'team_acme' },
      meta: { page: 0 },
    });
    expect(contacts).toEqual([
      { id: 'con_bob', name: 'Bob Stone', email: 'bob@stone.test', company_name: 'Stone Ltd' },
    ]);
  });

  it('companies without a team: every paid team’s first page, an unpaid team skipped', async () => {
    service()
      .get('/v2/teams')
      .query({ limit: '100' })
      .reply(
        200,
        page([
          { id: 'team_acme', name: 'Acme', subscription: paid },
          { id: 'team_free', name: 'Free', subscription: { ...paid, paid: false } },
        ]),
      );
    service()
      .get('/v2/companies')
      .query({ team_id: 'team_acme', limit: '100' })
      .reply(200, page([company]));
    const companies = await appTester(op('companies'), {
      authData: authData(),
      inputData: {},
      meta: { page: 0 },
    });
    expect(companies).toEqual([{ id: 'cmp_stone', name: 'Stone Ltd', type: 'customer' }]);
  });
});

describe('members', () => {
  const members = [
    { user_id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
    { user_id: 'usr_bob', email: 'bob@example.com', display_name: null },
  ];
  const listed = [
    { id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
    { id: 'usr_bob', email: 'bob@example.com', display_name: 'bob@example.com' },
  ];

  it('lists the chosen board’s members, valued by email', async () => {
    service().get('/v2/boards/brd_roadmap/members').query({ limit: '100' }).reply(200, page(members));
    const found = await appTester(op('members'), {
      authData: authData(),
      inputData: { board_id: 'brd_roadmap', task_id: 'tsk_1' },
      meta: { page: 0 },
    });
    expect(found).toEqual(listed);
  });

  it('without a board, lists the members of the chosen task’s board', async () => {
    service()
      .get('/v2/tasks/tsk_1')
      .reply(200, { data: { ...task, id: 'tsk_1', board_id: 'brd_sales' }, meta: { request_id: 'r' } });
    service().get('/v2/boards/brd_sales/members').query({ limit: '100' }).reply(200, page(members));
    const found = await appTester(op('members'), {
      authData: authData(),
      inputData: { task_id: 'tsk_1' },
      meta: { page: 0 },
    });
    expect(found).toEqual(listed);
  });

  it('asks for a board or a task first', async () => {
    const error = await rejection(
      appTester(op('members'), { authData: authData(), inputData: {}, meta: { page: 0 } }),
    );
    expect(zapierMessage(error)).toMatch(/Choose a board or a task first/);
  });
});
