import { dropdownTrigger, teamInput, teamScoped } from './dropdown.ts';

/** Dropdown: the CRM companies of the chosen team (every team's when none is chosen). */
export default dropdownTrigger({
  key: 'companies',
  noun: 'Company',
  label: 'New Company',
  description: 'Triggers when a company is added; lists the CRM companies of a team for dropdowns.',
  inputFields: [teamInput('CRM companies')],
  load: (z, bundle, cursor) => teamScoped(z, bundle, cursor, (client, query) => client.companies.list(query)),
  toItem: (company) => ({ id: company.id, name: company.name, type: company.type ?? null }),
  sample: { id: 'cmp_stone', name: 'Stone Ltd', type: 'customer' },
  outputFields: [
    { key: 'id', label: 'Company ID' },
    { key: 'name', label: 'Name' },
    { key: 'type', label: 'Type' },
  ],
});
