import { crmTeamField } from '../creates/crm.ts';
import { defineSearch } from '../creates/define.ts';
import { contact } from '../creates/resources.ts';

export default defineSearch({
  key: 'find_contact',
  noun: 'Contact',
  label: 'Find Contact',
  description: "Finds a contact in a team's CRM by name, email or other details.",
  inputFields: [
    crmTeamField,
    {
      key: 'q',
      label: 'Search Text',
      required: true,
      helpText: 'A name, email or other detail of the contact, e.g. `Bob Stone` or `bob@stone.test`.',
    },
  ],
  resource: contact,
  perform: async ({ input, v2 }) =>
    (await v2().contacts.list({ team_id: input.required('team_id'), q: input.required('q'), limit: 10 }))
      .data,
});
