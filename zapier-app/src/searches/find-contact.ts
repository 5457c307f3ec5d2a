import type { Contact } from '@threadwork/shared';
import { crmTeamField } from '../creates/crm.ts';
import { defineSearch } from '../creates/define.ts';
import { contact } from '../creates/resources.ts';
import { allowPartialField, matchedResource, matchQuery, scanPages } from './match.ts';

export default defineSearch({
  key: 'find_contact',
  noun: 'Contact',
  label: 'Find Contact',
  description: "Finds a contact in a team's CRM by its exact name or email (or another detail).",
  inputFields: [
    crmTeamField,
    {
      key: 'q',
      label: 'Search Text',
      required: true,
      helpText:
        'The full name, email or another detail of the contact, e.g. `Bob Stone` or `bob@stone.test`: any case, spaces around it ignored. Only an exact one is found unless Allow Partial Match is yes.',
    },
    allowPartialField('name or detail', { wanted: 'Bob Stone', found: 'Bob Stoneman' }),
  ],
  resource: matchedResource(contact),
  perform: async ({ input, v2 }) => {
    const query = matchQuery(input, 'q', (candidate: Contact) => [
      candidate.name,
      ...candidate.contact_info.map((info) => info.value),
    ]);
    return scanPages(
      await v2().contacts.list({ team_id: input.required('team_id'), q: query.wanted, limit: 100 }),
      query,
    );
  },
});
