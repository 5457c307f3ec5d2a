import { companyBody, companyFields, companyIdField } from './crm.ts';
import { defineAction } from './define.ts';
import { company } from './resources.ts';

export default defineAction({
  key: 'update_company',
  noun: 'Company',
  label: 'Update Company',
  description: 'Updates a CRM company; empty fields keep their stored values.',
  inputFields: [companyIdField, ...companyFields('update')],
  resource: company,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().companies.update(input.required('company_id'), companyBody(input), {
      idempotencyKey: idempotencyKey(),
    }),
});
