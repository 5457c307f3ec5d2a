import { defined, type InputField, type Inputs, teamField } from './fields.ts';

/** The fields contacts and companies share between create and update (empty inputs keep what is stored). */

export const crmTeamField = teamField({
  required: true,
  helpText: 'The team whose CRM holds the record. Pick one, or map a team ID (e.g. `team_acme`).',
});

export const contactIdField: InputField = {
  key: 'contact_id',
  label: 'Contact',
  required: true,
  dynamic: 'contacts.id.name',
  search: 'find_contact.id',
  helpText: 'The contact: pick one, map its ID (e.g. `con_bob`), or add a Find Contact search step.',
};

export const companyIdField: InputField = {
  key: 'company_id',
  label: 'Company',
  required: true,
  dynamic: 'companies.id.name',
  search: 'find_company.id',
  helpText: 'The company: pick one, map its ID (e.g. `cmp_stone`), or add a Find Company search step.',
};

const tagsField = (what: string): InputField => ({
  key: 'tags',
  label: 'Tags',
  list: true,
  required: false,
  helpText: `Tags of the ${what}, e.g. \`roofing\`. On an update they replace the stored tags.`,
});

export function contactFields(mode: 'create' | 'update'): InputField[] {
  return [
    {
      key: 'name',
      label: 'Full Name',
      required: mode === 'create',
      helpText: 'The name shown for the contact, e.g. `Bob Stone`.',
    },
    { key: 'first_name', label: 'First Name', required: false, helpText: 'e.g. `Bob`.' },
    { key: 'last_name', label: 'Last Name', required: false, helpText: 'e.g. `Stone`.' },
    { key: 'title', label: 'Job Title', required: false, helpText: 'e.g. `Owner`.' },
    {
      key: 'type',
      label: 'Type',
      required: false,
      helpText: 'What kind of contact, e.g. `sale`, `hire` or `general` (the default for a new contact).',
    },
    { key: 'stage', label: 'Stage', required: false, helpText: 'e.g. `Lead` or `Customer`.' },
    { key: 'source', label: 'Source', required: false, helpText: 'Where the contact came from, e.g. `web`.' },
    {
      key: 'contact_info',
      label: 'Contact Info',
      dict: true,
      required: false,
      helpText:
        'Pairs of kind and value, e.g. `email` → `bob@stone.test`, `phone` → `+44 20 7946 0000`. On an update they replace the stored ones.',
    },
    tagsField('contact'),
    {
      key: 'company_id',
      label: 'Company',
      required: false,
      dynamic: 'companies.id.name',
      search: 'find_company.id',
      helpText:
        'Link the contact to this company: pick one, map its ID (e.g. `cmp_stone`) or add a Find Company step.',
    },
    ...(mode === 'create'
      ? [
          {
            key: 'company_name',
            label: 'Company Name',
            required: false,
            helpText:
              'Or link to the company of this name, created when missing (e.g. `Stone Ltd`); ignored when Company is set. With neither, the team’s default company is used.',
          },
        ]
      : []),
  ];
}

export function contactBody(input: Inputs) {
  return defined({
    name: input.text('name'),
    first_name: input.text('first_name'),
    last_name: input.text('last_name'),
    title: input.text('title'),
    type: input.text('type'),
    stage: input.text('stage'),
    source: input.text('source'),
    contact_info: input.pairs('contact_info'),
    tags: input.list('tags'),
    company_id: input.text('company_id'),
  });
}

export function companyFields(mode: 'create' | 'update'): InputField[] {
  return [
    {
      key: 'name',
      label: 'Name',
      required: mode === 'create',
      helpText: 'The company name, e.g. `Stone Ltd`.',
    },
    { key: 'type', label: 'Type', required: false, helpText: 'e.g. `customer` or `supplier`.' },
    { key: 'stage', label: 'Stage', required: false, helpText: 'e.g. `Active`.' },
    {
      key: 'company_info',
      label: 'Company Info',
      dict: true,
      required: false,
      helpText:
        'Pairs of kind and value, e.g. `domain` → `stone.test`, `website` → `https://stone.test`. On an update they replace the stored ones.',
    },
    tagsField('company'),
  ];
}

export function companyBody(input: Inputs) {
  return defined({
    name: input.text('name'),
    type: input.text('type'),
    stage: input.text('stage'),
    company_info: input.pairs('company_info'),
    tags: input.list('tags'),
  });
}
