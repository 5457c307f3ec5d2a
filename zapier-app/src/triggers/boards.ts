import type { Board } from '@threadwork/shared';
import { dropdownTrigger, teamInput, teamScoped } from './dropdown.ts';

/** Dropdown: the boards of the chosen team, or of every team when none is chosen. */
export default dropdownTrigger<Board>({
  key: 'boards',
  noun: 'Board',
  label: 'New Board',
  description: 'Triggers when a board is added; lists the boards of a team for dropdowns.',
  inputFields: [teamInput('boards')],
  load: (z, bundle, cursor) =>
    teamScoped<Board>(z, bundle, cursor, (client, query) => client.boards.list(query)),
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
