// The fixture seed plus what the task and custom-field tests need: custom fields of every type on the
// Acme board, a sales board, a personal board, ada's mailbox, tasks ada must not reach, and keys that
// lack one scope each.
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';

export const KEYS = {
  ...SECRETS,
  /** ada: tasks.read, tasks.write, customfields.read; no email.metadata.read, no customfields.write. */
  adaTasksOnly: 'tw_test_ada_tasks_only_0123456789',
  /** dan: every default scope; a member of Acme without a mailbox. */
  danFull: 'tw_test_dan_full_0123456789abcdef',
} as const;

/** Threads of ada's mailbox. */
export const THREADS = {
  /** "Quote request", first from Bob Stone, then ada's reply; in the inbox. */
  quote: 'a1b2c3d4e5f60001',
  /** "Invoice 42", from an address without a name; in the inbox. */
  invoice: 'a1b2c3d4e5f60002',
  /** Linked by the seed to tsk_seeded. */
  seeded: 'a1b2c3d4e5f60003',
} as const;

const DEFAULT_SCOPES = fixtureSeed.api_keys[0]!.scopes;

export const tasksSeed = {
  ...fixtureSeed,
  users: [...fixtureSeed.users, { id: 'usr_dan', email: 'dan@example.com', display_name: 'Dan Brown' }],
  teams: fixtureSeed.teams.map((team) =>
    team.id === 'team_acme' ? { ...team, members: [...team.members, 'usr_dan'] } : team,
  ),
  boards: [
    ...fixtureSeed.boards.map((board) =>
      board.id === 'brd_acme'
        ? {
            ...board,
            custom_fields: [
              {
                id: 'cf_prio',
                name: 'Priority',
                type: 'tag',
                display_on_card: true,
                options: [
                  { id: 'opt_high', label: 'High' },
                  { id: 'opt_low', label: 'Low' },
                ],
              },
              {
                id: 'cf_state',
                name: 'State',
                type: 'status',
                options: [
                  { id: 'opt_open', label: 'Open' },
                  { id: 'opt_closed', label: 'Closed' },
                ],
              },
              { id: 'cf_text', name: 'Remark', type: 'text' },
              { id: 'cf_amount', name: 'Amount', type: 'number' },
              { id: 'cf_done', name: 'Checked', type: 'checkbox' },
              { id: 'cf_when', name: 'When', type: 'date' },
              {
                id: 'cf_reply',
                name: 'Response status',
                type: 'status',
                ai: true,
                options: [{ id: 'opt_needs_reply', label: 'Needs reply' }],
              },
            ],
          }
        : board,
    ),
    {
      id: 'brd_sales',
      team_id: 'team_acme',
      name: 'Pipeline',
      board_type: 'sales',
      template: 'sales',
      lists: [
        { id: 'lst_leads', name: 'Leads' },
        { id: 'lst_won', name: 'Won' },
      ],
      custom_fields: [{ id: 'cf_source', name: 'Source', type: 'text' }],
    },
    {
      id: 'brd_ada_own',
      owner_id: 'usr_ada',
      name: 'Ada private',
      lists: [{ id: 'lst_ada_own', name: 'Mine' }],
    },
  ],
  tasks: [
    ...fixtureSeed.tasks,
    {
      id: 'tsk_seeded',
      list_id: 'lst_done',
      title: 'From the seed',
      thread_ids: [THREADS.seeded],
      custom_fields: [{ field_id: 'cf_prio', value: ['opt_high'] }],
    },
    {
      id: 'tsk_deal',
      list_id: 'lst_leads',
      title: 'Big deal',
      content_type: 'sale',
      deal: { value: 1200, source: 'web', close_date: null, loss_reason: null },
      custom_fields: [{ field_id: 'cf_source', value: 'fair' }],
    },
    { id: 'tsk_secret', list_id: 'lst_secret', title: 'Not for ada' },
    { id: 'tsk_garage', list_id: 'lst_garage', title: 'Unpaid team' },
  ],
  mailboxes: [
    {
      user_id: 'usr_ada',
      email_address: 'ada@example.com',
      threads: [
        {
          id: THREADS.quote,
          messages: [
            {
              id: THREADS.quote,
              from: { email: 'bob@stone.test', name: 'Bob Stone' },
              to: [{ email: 'ada@example.com', name: null }],
              subject: 'Quote request',
              date: '2026-01-05T09:00:00Z',
              body_text: 'Can you send a quote?',
              labels: ['INBOX', 'UNREAD'],
            },
            {
              id: 'a1b2c3d4e5f60011',
              from: { email: 'ada@example.com', name: 'Ada Lovelace' },
              to: [{ email: 'bob@stone.test', name: 'Bob Stone' }],
              subject: 'Re: Quote request',
              date: '2026-01-05T11:00:00Z',
              body_text: 'Here it is.',
              labels: ['INBOX', 'SENT'],
            },
          ],
        },
        {
          id: THREADS.invoice,
          messages: [
            {
              id: THREADS.invoice,
              from: { email: 'billing@vendor.test', name: null },
              subject: 'Invoice 42',
              date: '2026-02-01T08:30:00Z',
              body_text: 'Please pay.',
              labels: ['INBOX'],
            },
          ],
        },
        {
          id: THREADS.seeded,
          messages: [
            {
              id: THREADS.seeded,
              from: { email: 'eve@client.test', name: 'Eve' },
              subject: 'Seeded thread',
              date: '2026-01-02T07:00:00Z',
              body_text: 'Hello.',
              labels: ['INBOX'],
            },
          ],
        },
      ],
    },
  ],
  api_keys: [
    ...fixtureSeed.api_keys,
    {
      id: 'key_ada_tasks',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'tasks only',
      secret: KEYS.adaTasksOnly,
      scopes: ['tasks.read', 'tasks.write', 'customfields.read'],
    },
    {
      id: 'key_dan_full',
      user_id: 'usr_dan',
      type: 'v2',
      name: 'ci',
      secret: KEYS.danFull,
      scopes: DEFAULT_SCOPES,
    },
  ],
} satisfies SeedInput;
