import type { Company } from '@threadwork/shared';
import { crmTeamField } from '../creates/crm.ts';
import { defineSearch } from '../creates/define.ts';
import { company } from '../creates/resources.ts';
import { allowPartialField, matchedResource, matchQuery, scanPages } from './match.ts';

export default defineSearch({
  key: 'find_company',
  noun: 'Company',
  label: 'Find Company',
  description: "Finds a company in a team's CRM by its exact name or a detail such as its domain.",
  inputFields: [
    crmTeamField,
    {
      key: 'q',
      label: 'Search Text',
      required: true,
      helpText:
        'The name or a detail of the company, e.g. `Stone Ltd` or `stone.test`: any case, spaces around it ignored. Only an exact one is found unless Allow Partial Match is yes.',
    },
    allowPartialField('name or detail', { wanted: 'Stone', found: 'Stone Ltd' }),
  ],
  resource: matchedResource(company),
  perform: async ({ input, v2 }) => {
    const query = matchQuery(input, 'q', (candidate: Company) => [
      candidate.name,
      ...candidate.company_info.map((info) => info.value),
    ]);
    return scanPages(
      await v2().companies.list({ team_id: input.required('team_id'), q: query.wanted, limit: 100 }),
      query,
    );
  },
});
