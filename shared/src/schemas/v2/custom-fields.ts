import { z } from 'zod';
import { NameString, openEnum } from '../common.ts';
import { CUSTOM_FIELD_TYPES, OPTION_FIELD_TYPES } from '../values.ts';

export { CUSTOM_FIELD_TYPES, OPTION_FIELD_TYPES };
export const CustomFieldType = z.enum(CUSTOM_FIELD_TYPES);
export type CustomFieldType = z.infer<typeof CustomFieldType>;

/** The only types for which `display_on_card` means something. */
export const CARD_DISPLAY_FIELD_TYPES: readonly CustomFieldType[] = ['status', 'tag'];

export const CustomFieldOption = z.looseObject({ id: z.string(), label: z.string() });
export type CustomFieldOption = z.infer<typeof CustomFieldOption>;

export const CustomField = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: openEnum(CUSTOM_FIELD_TYPES),
  ai: z.boolean(),
  display_on_card: z.boolean(),
  options: z.array(CustomFieldOption).nullable(),
});
export type CustomField = z.infer<typeof CustomField>;

/** A stored value: option ids for tag/status/select, the raw value otherwise; `[]` or null clears. */
export const CustomFieldValue = z.looseObject({
  field_id: z.string().min(1),
  value: z.unknown(),
});
export type CustomFieldValue = z.infer<typeof CustomFieldValue>;

/** In a request the value is required (null clears), so a forgotten `value` is an error, not a clear. */
export const CustomFieldValueInput = z.strictObject({
  field_id: z.string().min(1),
  value: z.union([z.null(), z.string(), z.number(), z.boolean(), z.array(z.string())]),
});
export type CustomFieldValueInput = z.infer<typeof CustomFieldValueInput>;

const NewOption = z.strictObject({ label: NameString });

export const CreateCustomFieldRequest = z
  .strictObject({
    name: NameString,
    type: CustomFieldType,
    options: z.array(NewOption).optional(),
    display_on_card: z.boolean().optional(),
  })
  .superRefine((field, ctx) => {
    if (field.options !== undefined && !OPTION_FIELD_TYPES.includes(field.type)) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `options are only valid for ${OPTION_FIELD_TYPES.join(', ')} fields`,
      });
    }
    if (field.display_on_card !== undefined && !CARD_DISPLAY_FIELD_TYPES.includes(field.type)) {
      ctx.addIssue({
        code: 'custom',
        path: ['display_on_card'],
        message: 'display_on_card is only valid for status and tag fields',
      });
    }
  });
export type CreateCustomFieldRequest = z.infer<typeof CreateCustomFieldRequest>;

/** Options replace the set: an item with `id` keeps that option (relabelled), one without adds an option. */
export const UpdateCustomFieldRequest = z
  .strictObject({
    name: NameString.optional(),
    options: z.array(z.strictObject({ id: z.string().min(1).optional(), label: NameString })).optional(),
    display_on_card: z.boolean().optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: 'send at least one of name, options, display_on_card',
  });
export type UpdateCustomFieldRequest = z.infer<typeof UpdateCustomFieldRequest>;
