import { crmTeamField } from '../creates/crm.ts';
import { defineSearch } from '../creates/define.ts';
import { company } from '../creates/resources.ts';

export default defineSearch({
  key: 'find_company',
  noun: 'Company',
  label: 'Find Company',
  description: "Finds a company in a team's CRM by name or details such as its domain.",
  inputFields: [
    crmTeamField,
    {
      key: 'q',
      label: 'Search Text',
      required: true,
      helpText: 'A name or detail of the company, e.g. `Stone Ltd` or `stone.test`.',
    },
  ],
  resource: company,
  perform: async ({ input, v2 }) =>
    (await v2().companies.list({ team_id: input.required('team_id'), q: input.required('q'), limit: 10 }))
      .data,
});
