import { DEFAULT_SCOPES } from '@threadwork/shared/schemas';
import type { SeedInput } from '../../src/index.ts';

/** Credentials of the fixture seed, for tests to authenticate with. */
export const SECRETS = {
  /** ada, every default scope. */
  adaFull: 'tw_test_ada_full_0123456789abcdef',
  /** ada, read-only on boards (no lists scopes, no boards.write). */
  adaBoardsRead: 'tw_test_ada_boards_read_0123456789',
  /** bob, every default scope (bob is only in the unpaid team). */
  bobFull: 'tw_test_bob_full_0123456789abcdef',
  legacy: {
    email: 'ada@example.com',
    api_key: 'adalegacykey01',
    api_secret: 'adalegacysecret01',
    api_key_name: 'Zapier',
  },
} as const;

/**
 * Two teams: Acme (paid, ada) and Garage (unpaid, ada and bob); a third team ada cannot see (Umbrella,
 * carol). Acme has a shared board with three lists; Umbrella has a board ada must never see.
 */
export const fixtureSeed = {
  users: [
    { id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' },
    { id: 'usr_bob', email: 'bob@example.com', display_name: 'Bob Stone' },
    { id: 'usr_carol', email: 'carol@example.com', display_name: null },
  ],
  teams: [
    { id: 'team_acme', name: 'Acme', members: ['usr_ada'], subscription: { plan: 'pro', status: 'active' } },
    {
      id: 'team_garage',
      name: 'Garage',
      members: ['usr_ada', 'usr_bob'],
      subscription: { plan: 'pro', status: 'cancelled' },
    },
    {
      id: 'team_umbrella',
      name: 'Umbrella',
      members: ['usr_carol'],
      subscription: { plan: 'business', status: 'active' },
    },
  ],
  boards: [
    {
      id: 'brd_acme',
      team_id: 'team_acme',
      name: 'Roadmap',
      lists: [
        { id: 'lst_todo', name: 'To do' },
        { id: 'lst_doing', name: 'Doing' },
        { id: 'lst_done', name: 'Done' },
      ],
    },
    {
      id: 'brd_garage',
      team_id: 'team_garage',
      name: 'Garage board',
      lists: [{ id: 'lst_garage', name: 'Ideas' }],
    },
    {
      id: 'brd_umbrella',
      team_id: 'team_umbrella',
      name: 'Secret',
      lists: [{ id: 'lst_secret', name: 'Hidden' }],
    },
  ],
  tasks: [{ id: 'tsk_1', list_id: 'lst_todo', title: 'Call Bob' }],
  api_keys: [
    {
      id: 'key_ada_full',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'ci',
      secret: SECRETS.adaFull,
      scopes: [...DEFAULT_SCOPES],
    },
    {
      id: 'key_ada_read',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'read only',
      secret: SECRETS.adaBoardsRead,
      scopes: ['boards.read'],
    },
    {
      id: 'key_bob_full',
      user_id: 'usr_bob',
      type: 'v2',
      name: 'ci',
      secret: SECRETS.bobFull,
      scopes: [...DEFAULT_SCOPES],
    },
    {
      id: 'key_ada_legacy',
      user_id: 'usr_ada',
      type: 'legacy',
      name: SECRETS.legacy.api_key_name,
      api_key: SECRETS.legacy.api_key,
      api_secret: SECRETS.legacy.api_secret,
    },
  ],
} satisfies SeedInput;
