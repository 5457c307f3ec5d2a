import type { Board } from '@threadwork/shared';
import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger } from './dropdown.ts';

/** Dropdown: the boards of the chosen team, or of every team when none is chosen. */
export default dropdownTrigger<Board>({
  key: 'boards',
  noun: 'Board',
  label: 'New Board',
  description: 'Triggers when a board is added; lists the boards of a team for dropdowns.',
  inputFields: [
    {
      key: 'team_id',
      label: 'Team',
      dynamic: 'teams.id.name',
      helpText: 'The team whose boards to list, e.g. `team_acme`; all teams when left empty.',
    },
  ],
  load: async (z, bundle, cursor) => {
    const client = v2Client(z, bundle);
    const teamId = bundle.inputData['team_id'];
    if (typeof teamId === 'string' && teamId !== '') {
      return client.boards.list({ team_id: teamId, limit: DROPDOWN_PAGE_SIZE, cursor });
    }
    // No team chosen: the first page of every team's boards (a user belongs to a few teams). A team without
    // a paid subscription is skipped: its boards answer `subscription_required`, which would empty the list.
    const boards: Board[] = [];
    for await (const team of client.teams.list({ limit: DROPDOWN_PAGE_SIZE })) {
      if (team.subscription?.paid === false) continue;
      boards.push(...(await client.boards.list({ team_id: team.id, limit: DROPDOWN_PAGE_SIZE })).data);
    }
    return boards;
  },
  toItem: (board) => ({
    id: board.id,
    name: board.name,
    team_id: board.team_id,
    board_type: board.board_type,
  }),
  sample: { id: 'brd_sales', name: 'Pipeline', team_id: 'team_acme', board_type: 'sales' },
  outputFields: [
    { key: 'id', label: 'Board ID' },
    { key: 'name', label: 'Board Name' },
    { key: 'team_id', label: 'Team ID' },
    { key: 'board_type', label: 'Board Type' },
  ],
});
