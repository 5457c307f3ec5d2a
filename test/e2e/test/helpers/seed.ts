import type { SeedInput } from '@threadwork/reference-server';
import { LegacyClient } from '@threadwork/shared';
import { DEFAULT_SCOPES } from '@threadwork/shared/schemas';

/** The credentials of the e2e seed. */
export const CREDENTIALS = {
  /** ada, every scope granted by default. */
  full: 'tw_e2e_ada_full_0123456789abcdef',
  /** ada, boards.read only. */
  boardsRead: 'tw_e2e_ada_boards_read_0123456789',
  legacy: {
    email: 'ada@example.com',
    apiKey: 'e2eadalegacykey01',
    apiSecret: 'e2eadalegacysecret01',
    apiKeyName: 'Zapier',
  },
} as const;

/** A v1 client signed in with the seed's legacy key (another secret, to test a refused one). */
export function seededLegacyClient(origin: string, overrides: { apiSecret?: string } = {}): LegacyClient {
  return new LegacyClient({
    origin,
    email: CREDENTIALS.legacy.email,
    apiKey: CREDENTIALS.legacy.apiKey,
    apiSecret: overrides.apiSecret ?? CREDENTIALS.legacy.apiSecret,
    apiKeyName: CREDENTIALS.legacy.apiKeyName,
  });
}

/** Every scope a key gets by default (email.send and drafts.delete are opt-in). */
export { DEFAULT_SCOPES };

export const IDS = {
  ada: 'usr_ada',
  bob: 'usr_bob',
  paidTeam: 'team_acme',
  unpaidTeam: 'team_garage',
  board: 'brd_roadmap',
  salesBoard: 'brd_sales',
  unpaidBoard: 'brd_garage',
  todo: 'lst_todo',
  doing: 'lst_doing',
  done: 'lst_done',
  leads: 'lst_leads',
  won: 'lst_won',
  unpaidList: 'lst_garage',
  priority: 'cf_priority',
  priorityHigh: 'opt_high',
  priorityLow: 'opt_low',
  estimate: 'cf_estimate',
  replyStatus: 'cf_reply_status',
  deal: 'tsk_deal',
  unpaidTask: 'tsk_garage',
  fullKey: 'key_full',
  boardsReadKey: 'key_boards_read',
  legacyKey: 'key_legacy',
} as const;

/** The threads of ada's mailbox: one message in the roof thread, two in the lunch thread. */
export const THREADS = {
  roof: {
    id: '18c2f0a1b2c3d4e5',
    subject: 'Quote for the roof',
    from: { email: 'bob@stone.test', name: 'Bob' },
    date: '2026-01-05T09:00:00.000Z',
  },
  lunch: {
    id: '18c2f0a1b2c3d4e6',
    firstMessageId: '18c2f0a1b2c3d4e6',
    subject: 'Lunch on Friday?',
    from: { email: 'carol@cafe.test', name: null },
    date: '2026-01-06T11:30:00.000Z',
  },
} as const;

const ada = { email: 'ada@example.com', name: 'Ada Lovelace' };

/**
 * Acme (paid; ada and bob) has a shared board with three lists and custom fields, and a sales board;
 * Garage (unpaid; ada) has one board. Ada's mailbox is connected and holds two threads.
 */
export const e2eSeed = {
  users: [
    { id: IDS.ada, email: 'ada@example.com', display_name: 'Ada Lovelace' },
    { id: IDS.bob, email: 'bob@example.com', display_name: 'Bob Stone' },
  ],
  teams: [
    {
      id: IDS.paidTeam,
      name: 'Acme',
      members: [IDS.ada, IDS.bob],
      subscription: { plan: 'pro', status: 'active' },
    },
    {
      id: IDS.unpaidTeam,
      name: 'Garage',
      members: [IDS.ada],
      subscription: { plan: 'pro', status: 'unpaid' },
    },
  ],
  boards: [
    {
      id: IDS.board,
      team_id: IDS.paidTeam,
      name: 'Roadmap',
      lists: [
        { id: IDS.todo, name: 'To do' },
        { id: IDS.doing, name: 'Doing' },
        { id: IDS.done, name: 'Done' },
      ],
      custom_fields: [
        {
          id: IDS.priority,
          name: 'Priority',
          type: 'tag',
          display_on_card: true,
          options: [
            { id: IDS.priorityHigh, label: 'High' },
            { id: IDS.priorityLow, label: 'Low' },
          ],
        },
        { id: IDS.estimate, name: 'Estimate (days)', type: 'number' },
        {
          id: IDS.replyStatus,
          name: 'Reply status',
          type: 'status',
          ai: true,
          display_on_card: true,
          options: [{ id: 'opt_needs_reply', label: 'Needs reply' }],
        },
      ],
    },
    {
      id: IDS.salesBoard,
      team_id: IDS.paidTeam,
      name: 'Pipeline',
      board_type: 'sales',
      template: 'sales',
      lists: [
        { id: IDS.leads, name: 'Leads' },
        { id: IDS.won, name: 'Won' },
      ],
    },
    {
      id: IDS.unpaidBoard,
      team_id: IDS.unpaidTeam,
      name: 'Garage board',
      lists: [{ id: IDS.unpaidList, name: 'Ideas' }],
    },
  ],
  tasks: [
    {
      id: IDS.deal,
      list_id: IDS.leads,
      title: 'Roof deal',
      content_type: 'sale',
      created_at: '2026-01-05T10:00:00Z',
      thread_ids: [THREADS.roof.id],
      deal: { value: 1200, source: 'web' },
    },
    { id: IDS.unpaidTask, list_id: IDS.unpaidList, title: 'Fix the door' },
  ],
  mailboxes: [
    {
      user_id: IDS.ada,
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      state: 'connected',
      labels: [{ id: 'Label_1', name: 'Clients' }],
      threads: [
        {
          id: THREADS.roof.id,
          messages: [
            {
              id: THREADS.roof.id,
              from: THREADS.roof.from,
              to: [ada],
              subject: THREADS.roof.subject,
              date: THREADS.roof.date,
              body_text: 'Hi Ada, the quote for the roof is attached.',
              labels: ['INBOX', 'UNREAD', 'Label_1'],
            },
          ],
        },
        {
          id: THREADS.lunch.id,
          messages: [
            {
              id: THREADS.lunch.firstMessageId,
              from: THREADS.lunch.from,
              to: [ada],
              subject: THREADS.lunch.subject,
              date: THREADS.lunch.date,
              body_text: 'Are you free for lunch on Friday?',
              labels: ['INBOX'],
            },
            {
              id: '18c2f0a1b2c3d4f0',
              from: ada,
              to: [{ email: THREADS.lunch.from.email, name: null }],
              subject: `Re: ${THREADS.lunch.subject}`,
              date: '2026-01-06T12:00:00.000Z',
              body_text: 'Yes, noon works.',
              labels: ['SENT'],
            },
          ],
        },
      ],
    },
  ],
  api_keys: [
    {
      id: IDS.fullKey,
      user_id: IDS.ada,
      type: 'v2',
      name: 'e2e',
      secret: CREDENTIALS.full,
      scopes: [...DEFAULT_SCOPES],
    },
    {
      id: IDS.boardsReadKey,
      user_id: IDS.ada,
      type: 'v2',
      name: 'e2e read-only',
      secret: CREDENTIALS.boardsRead,
      scopes: ['boards.read'],
    },
    {
      id: IDS.legacyKey,
      user_id: IDS.ada,
      type: 'legacy',
      name: CREDENTIALS.legacy.apiKeyName,
      api_key: CREDENTIALS.legacy.apiKey,
      api_secret: CREDENTIALS.legacy.apiSecret,
    },
  ],
} satisfies SeedInput;
