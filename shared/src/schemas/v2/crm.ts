import { z } from 'zod';
import { boundedString, NameString, NonEmptyString, PaginationQuery } from '../common.ts';
import { MAX_NAME_LENGTH } from '../limits.ts';

export const InfoEntry = z.looseObject({ type: z.string(), value: z.string() });
export type InfoEntry = z.infer<typeof InfoEntry>;
const InfoEntryInput = z.strictObject({ type: NonEmptyString, value: NonEmptyString });

export const Contact = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  title: z.string().nullable(),
  type: z.string().nullable(),
  stage: z.string().nullable(),
  source: z.string().nullable(),
  contact_info: z.array(InfoEntry),
  tags: z.array(z.string()),
  company: z.looseObject({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
});
export type Contact = z.infer<typeof Contact>;

export const Company = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  stage: z.string().nullable(),
  company_info: z.array(InfoEntry),
  tags: z.array(z.string()),
});
export type Company = z.infer<typeof Company>;

/** A contact's first or last name: a part of a name, held to the same limit (it may be empty or null). */
const NamePart = boundedString(MAX_NAME_LENGTH);

const contactFields = {
  first_name: NamePart.nullable().optional(),
  last_name: NamePart.nullable().optional(),
  title: z.string().nullable().optional(),
  stage: z.string().nullable().optional(),
  source: z.string().nullable().optional(),
  contact_info: z.array(InfoEntryInput).optional(),
  tags: z.array(NonEmptyString).optional(),
};

/** With neither company_id nor company_name the organisation's default company is used. */
export const CreateContactRequest = z.strictObject({
  team_id: z.string().min(1),
  name: NameString,
  type: z.string().min(1).default('general'),
  company_id: z.string().min(1).optional(),
  /** Find-or-create by name; ignored when company_id is given. */
  company_name: NameString.optional(),
  ...contactFields,
});
export type CreateContactRequest = z.infer<typeof CreateContactRequest>;

export const UpdateContactRequest = z
  .strictObject({
    name: NameString.optional(),
    type: z.string().min(1).optional(),
    company_id: z.string().min(1).optional(),
    ...contactFields,
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'send at least one field to change',
  });
export type UpdateContactRequest = z.infer<typeof UpdateContactRequest>;

const companyFields = {
  name: NameString.optional(),
  type: z.string().nullable().optional(),
  stage: z.string().nullable().optional(),
  company_info: z.array(InfoEntryInput).optional(),
  tags: z.array(NonEmptyString).optional(),
};

export const CreateCompanyRequest = z.strictObject({ team_id: z.string().min(1), ...companyFields });
export type CreateCompanyRequest = z.infer<typeof CreateCompanyRequest>;

export const UpdateCompanyRequest = z
  .strictObject(companyFields)
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'send at least one field to change',
  });
export type UpdateCompanyRequest = z.infer<typeof UpdateCompanyRequest>;

export const SearchCrmQuery = PaginationQuery.extend({
  team_id: z.string().min(1),
  q: z.string().optional(),
});
export type SearchCrmQuery = z.infer<typeof SearchCrmQuery>;
