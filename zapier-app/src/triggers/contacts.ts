import { dropdownTrigger, teamInput, teamScoped } from './dropdown.ts';

/** Dropdown: the CRM contacts of the chosen team (every team's when none is chosen). */
export default dropdownTrigger({
  key: 'contacts',
  noun: 'Contact',
  label: 'New Contact',
  description: 'Triggers when a contact is added; lists the CRM contacts of a team for dropdowns.',
  inputFields: [teamInput('CRM contacts')],
  load: (z, bundle, cursor) => teamScoped(z, bundle, cursor, (client, query) => client.contacts.list(query)),
  toItem: (contact) => ({
    id: contact.id,
    name: contact.name,
    email: contact.contact_info.find((info) => info.type === 'email')?.value ?? null,
    company_name: contact.company?.name ?? null,
  }),
  sample: { id: 'con_bob', name: 'Bob Stone', email: 'bob@stone.test', company_name: 'Stone Ltd' },
  outputFields: [
    { key: 'id', label: 'Contact ID' },
    { key: 'name', label: 'Name' },
    { key: 'email', label: 'Email' },
    { key: 'company_name', label: 'Company Name' },
  ],
});
