import { contactBody, contactFields, contactIdField } from './crm.ts';
import { defineAction } from './define.ts';
import { contact } from './resources.ts';

export default defineAction({
  key: 'update_contact',
  noun: 'Contact',
  label: 'Update Contact',
  description: 'Updates a CRM contact; empty fields keep their stored values.',
  inputFields: [contactIdField, ...contactFields('update')],
  resource: contact,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().contacts.update(input.required('contact_id'), contactBody(input), {
      idempotencyKey: idempotencyKey(),
    }),
});
