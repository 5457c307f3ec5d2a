import { SCOPES } from '@threadwork/shared/schemas';
import type { SeedInput } from '../../src/index.ts';
import { fixtureSeed } from './fixtures.ts';
import { mailboxSeed } from './mailbox-fixtures.ts';

/** Extra credentials for mailbox writes (the mailbox seed's keys still work). */
export const WRITE_SECRETS = {
  /** ada, every scope including the opt-in email.send and drafts.delete. */
  adaAll: 'tw_test_ada_every_scope_0123456789',
  /** bob (mailbox needs reauthorisation), every scope. */
  bobAll: 'tw_test_bob_every_scope_0123456789',
  /** dan (no mailbox), every scope. */
  danAll: 'tw_test_dan_every_scope_0123456789',
} as const;

export const WRITE_THREADS = {
  /** From Bob with a Reply-To, to ada and eve, copied to carol and ada. */
  support: '18e0aaaa00000001',
} as const;

/** The AI-managed fields on the Acme board: a status field and a tag field for the sentiment. */
export const AI_FIELDS = {
  status: 'cf_ai_status',
  sentiment: 'cf_ai_mood',
  plain: 'cf_plain',
} as const;

const ada = { email: 'ada@example.com', name: 'Ada Lovelace' };

/**
 * The mailbox seed plus: a thread whose message carries a Reply-To and a wide audience, AI-managed
 * custom fields on the Acme board (where tsk_roof links the roof thread), and keys with every scope.
 */
export const mailboxWritesSeed = {
  ...mailboxSeed,
  boards: fixtureSeed.boards.map((board) =>
    board.id !== 'brd_acme'
      ? board
      : {
          ...board,
          custom_fields: [
            {
              id: AI_FIELDS.status,
              name: 'Response status',
              type: 'status',
              ai: true,
              options: [
                { id: 'opt_needs_reply', label: 'Needs reply' },
                { id: 'opt_waiting', label: 'Waiting' },
                { id: 'opt_resolved', label: 'Resolved' },
                { id: 'opt_fyi', label: 'FYI' },
              ],
            },
            {
              id: AI_FIELDS.sentiment,
              name: 'Mood',
              type: 'tag',
              ai: true,
              options: [
                { id: 'opt_positive', label: 'Positive' },
                { id: 'opt_negative', label: 'Negative' },
              ],
            },
            {
              id: AI_FIELDS.plain,
              name: 'Priority',
              type: 'select',
              ai: false,
              options: [{ id: 'opt_p1', label: 'P1' }],
            },
          ],
        },
  ),
  mailboxes: mailboxSeed.mailboxes.map((mailbox) =>
    mailbox.user_id !== 'usr_ada'
      ? mailbox
      : {
          ...mailbox,
          threads: [
            ...(mailbox.threads ?? []),
            {
              id: WRITE_THREADS.support,
              messages: [
                {
                  id: WRITE_THREADS.support,
                  from: { email: 'bob@stone.test', name: 'Bob' },
                  reply_to: { email: 'support@stone.test', name: 'Stone Support' },
                  to: [ada, { email: 'eve@example.com', name: 'Eve' }],
                  cc: [
                    { email: 'carol@example.com', name: null },
                    { email: 'ADA@example.com', name: null },
                  ],
                  subject: 'Ticket 42',
                  date: '2026-01-04T09:00:00Z',
                  body_text: 'The printer is broken again. Can you help?',
                  labels: ['INBOX', 'UNREAD'],
                },
              ],
            },
          ],
        },
  ),
  api_keys: [
    ...mailboxSeed.api_keys,
    ...(
      [
        ['usr_ada', WRITE_SECRETS.adaAll],
        ['usr_bob', WRITE_SECRETS.bobAll],
        ['usr_dan', WRITE_SECRETS.danAll],
      ] as const
    ).map(([user_id, secret]) => ({
      id: `key_${user_id}_every_scope`,
      user_id,
      type: 'v2' as const,
      name: 'every scope',
      secret,
      scopes: [...SCOPES],
    })),
  ],
} satisfies SeedInput;
