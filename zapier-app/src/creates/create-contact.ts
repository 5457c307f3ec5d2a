import { contactBody, contactFields, crmTeamField } from './crm.ts';
import { defineAction } from './define.ts';
import { contact } from './resources.ts';

export default defineAction({
  key: 'create_contact',
  noun: 'Contact',
  label: 'Create Contact',
  description: "Creates a contact in a team's CRM.",
  inputFields: [crmTeamField, ...contactFields('create')],
  resource: contact,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().contacts.create(
      {
        ...contactBody(input),
        team_id: input.required('team_id'),
        name: input.required('name'),
        ...(input.text('company_name') === undefined ? {} : { company_name: input.text('company_name') }),
      },
      { idempotencyKey: idempotencyKey() },
    ),
});
