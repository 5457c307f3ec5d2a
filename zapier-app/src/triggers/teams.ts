import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger } from './dropdown.ts';

/** Dropdown: the teams of the connected user. */
export default dropdownTrigger({
  key: 'teams',
  noun: 'Team',
  label: 'New Team',
  description: 'Triggers when a team is added; lists the teams for dropdowns.',
  load: async (z, bundle, cursor) =>
    (await v2Client(z, bundle)).teams.list({ limit: DROPDOWN_PAGE_SIZE, cursor }),
  toItem: (team) => ({ id: team.id, name: team.name }),
  sample: { id: 'team_acme', name: 'Acme' },
  outputFields: [
    { key: 'id', label: 'Team ID' },
    { key: 'name', label: 'Team Name' },
  ],
});
