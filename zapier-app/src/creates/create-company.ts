import { companyBody, companyFields, crmTeamField } from './crm.ts';
import { defineAction } from './define.ts';
import { company } from './resources.ts';

export default defineAction({
  key: 'create_company',
  noun: 'Company',
  label: 'Create Company',
  description: "Creates a company in a team's CRM.",
  inputFields: [crmTeamField, ...companyFields('create')],
  resource: company,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().companies.create(
      { ...companyBody(input), team_id: input.required('team_id'), name: input.required('name') },
      { idempotencyKey: idempotencyKey() },
    ),
});
