import type { SeedInput } from '../../src/index.ts';
import { fixtureSeed } from './fixtures.ts';

/** Extra credentials of the mailbox seed (the fixture seed's keys still work). */
export const MAILBOX_SECRETS = {
  /** ada, email.metadata.read only (no email.body.read). */
  adaMetadata: 'tw_test_ada_mail_metadata_0123456789',
  /** dan, every email scope; dan never linked a mailbox. */
  dan: 'tw_test_dan_mail_0123456789abcdef',
} as const;

export const THREADS = {
  roof: '18c2f0a1b2c3d4e5',
  lunch: '18c2f0a1b2c3d4e6',
  prize: '18c2f0a1b2c3d4e7',
  newsletter: '18c2f0a1b2c3d4e8',
  invoiceA: '18c2f0a1b2c3d4e9',
  invoiceB: '18c2f0a1b2c3d4ea',
  invoiceOld: '18c2f0a1b2c3d4eb',
  carols: '18d0c0ffee000001',
} as const;

/** The clock of servers started with this seed: three days after the roof thread. */
export const MAILBOX_NOW = new Date('2026-01-08T12:00:00Z');

const ada = { email: 'ada@example.com', name: 'Ada Lovelace' };
const bob = { email: 'bob@stone.test', name: 'Bob' };
const billing = { email: 'billing@utility.test', name: 'Utility Billing' };

const invoice = (id: string, date: string, month: string) => ({
  id,
  messages: [
    {
      id,
      from: billing,
      to: [ada],
      subject: `Invoice for ${month}`,
      date,
      body_text: `Your invoice for ${month} is ready.`,
      labels: ['INBOX'],
    },
  ],
});

/**
 * The fixture seed plus mailboxes: ada's is connected (five threads in the inbox, one in Spam, one in
 * Trash), bob's needs reauthorisation, carol's is connected, dan has none. The roof thread is linked to
 * a task ada can see, one on an unpaid team's board and one on a board of a team she is not in.
 */
export const mailboxSeed = {
  ...fixtureSeed,
  users: [...fixtureSeed.users, { id: 'usr_dan', email: 'dan@example.com', display_name: 'Dan' }],
  tasks: [
    ...fixtureSeed.tasks,
    { id: 'tsk_roof', list_id: 'lst_todo', title: 'Send the roof quote', thread_ids: [THREADS.roof] },
    { id: 'tsk_garage_roof', list_id: 'lst_garage', title: 'Unpaid team card', thread_ids: [THREADS.roof] },
    { id: 'tsk_secret_roof', list_id: 'lst_secret', title: 'Foreign card', thread_ids: [THREADS.roof] },
  ],
  mailboxes: [
    {
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      state: 'connected',
      labels: [{ id: 'Label_1', name: 'Clients' }],
      threads: [
        {
          id: THREADS.roof,
          messages: [
            {
              id: THREADS.roof,
              from: bob,
              to: [{ email: 'ada@example.com', name: null }],
              cc: [{ email: 'carol@example.com', name: null }],
              subject: 'Quote for the roof',
              date: '2026-01-05T09:00:00Z',
              body_text: 'Hi Ada,\n\nthe quote   for the roof is attached.',
              body_html: '<p>Hi Ada, the quote for the roof is attached.</p>',
              labels: ['INBOX', 'UNREAD', 'Label_1'],
            },
            {
              id: '18c2f0a1b2c3d4f0',
              from: ada,
              to: [bob],
              subject: 'Re: Quote for the roof',
              date: '2026-01-05T10:00:00Z',
              body_text: 'Thanks Bob, that works for me.',
              labels: ['SENT'],
            },
          ],
        },
        {
          id: THREADS.lunch,
          messages: [
            {
              id: THREADS.lunch,
              from: { email: 'carol@example.com', name: 'Carol' },
              to: [ada],
              subject: 'Lunch on Friday?',
              date: '2026-01-06T08:00:00Z',
              body_text: 'Are you free for lunch on Friday?',
              labels: ['INBOX', 'STARRED'],
            },
          ],
        },
        {
          id: THREADS.prize,
          messages: [
            {
              id: THREADS.prize,
              from: { email: 'winner@prize.test', name: null },
              to: [ada],
              subject: 'You won a prize',
              date: '2026-01-07T08:00:00Z',
              body_text: 'Claim your prize now',
              labels: ['SPAM', 'UNREAD'],
            },
          ],
        },
        {
          id: THREADS.newsletter,
          messages: [
            {
              id: THREADS.newsletter,
              from: { email: 'news@letter.test', name: 'Newsletter' },
              to: [ada],
              subject: 'Weekly news',
              date: '2026-01-08T08:00:00Z',
              body_text: 'This week in news',
              labels: ['TRASH'],
            },
          ],
        },
        // Two threads at the same instant: ties are broken by thread id, newest-first order stays stable.
        invoice(THREADS.invoiceA, '2026-01-03T12:00:00Z', 'December'),
        invoice(THREADS.invoiceB, '2026-01-03T12:00:00Z', 'November'),
        invoice(THREADS.invoiceOld, '2025-12-01T12:00:00Z', 'October'),
      ],
    },
    { user_id: 'usr_bob', email_address: 'bob@example.com', state: 'reauth_required' },
    {
      user_id: 'usr_carol',
      email_address: 'carol@example.com',
      threads: [
        {
          id: THREADS.carols,
          messages: [
            {
              id: THREADS.carols,
              from: { email: 'dave@example.com', name: null },
              to: [{ email: 'carol@example.com', name: null }],
              subject: 'Private to Carol',
              date: '2026-01-07T09:00:00Z',
              body_text: 'Only Carol may read this',
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
      id: 'key_ada_metadata',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'metadata only',
      secret: MAILBOX_SECRETS.adaMetadata,
      scopes: ['email.metadata.read'],
    },
    {
      id: 'key_dan',
      user_id: 'usr_dan',
      type: 'v2',
      name: 'ci',
      secret: MAILBOX_SECRETS.dan,
      scopes: ['email.metadata.read', 'email.body.read'],
    },
  ],
} satisfies SeedInput;
