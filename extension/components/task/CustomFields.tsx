/** The chosen board's custom fields in the create form, each as its kind takes a value. */
import type { CustomField, CustomFieldValueInput } from '@threadwork/shared/schemas';
import type { FieldInput } from './useDraft.ts';

/** Kinds with options: one option, or several. */
const ONE_OPTION = new Set(['select', 'status']);
const MANY_OPTIONS = new Set(['tag', 'multiselect']);
/** Each typed kind and the input that takes it; a kind not listed here cannot be filled in from the panel. */
const INPUT_TYPES: Record<string, string> = {
  text: 'text',
  url: 'url',
  phone: 'tel',
  number: 'number',
  date: 'date',
};

/** The fields a user may fill in: not the ones the service's AI manages, and only of kinds the panel knows. */
function fillable(fields: readonly CustomField[]): CustomField[] {
  return fields.filter(
    (field) =>
      !field.ai &&
      (field.type in INPUT_TYPES ||
        field.type === 'multiline_text' ||
        field.type === 'checkbox' ||
        ONE_OPTION.has(field.type) ||
        MANY_OPTIONS.has(field.type)),
  );
}

/** The values to set on the new task: the fields filled in, each as its kind's value; empty ones left unset. */
export function fieldValues(
  fields: readonly CustomField[],
  inputs: Record<string, FieldInput>,
): CustomFieldValueInput[] {
  const values: CustomFieldValueInput[] = [];
  for (const field of fillable(fields)) {
    const input = inputs[field.id];
    if (input === undefined || input === '' || input === false) continue;
    if (Array.isArray(input)) {
      const known = input.filter((id) => field.options?.some((option) => option.id === id));
      if (known.length > 0) values.push({ field_id: field.id, value: known });
    } else if (field.type === 'number') {
      const number = Number(input);
      if (typeof input === 'string' && Number.isFinite(number))
        values.push({ field_id: field.id, value: number });
    } else if (field.type === 'checkbox') {
      values.push({ field_id: field.id, value: input === true });
    } else if (typeof input === 'string') {
      values.push({ field_id: field.id, value: input.trim() });
    }
  }
  return values;
}

export function CustomFields({
  fields,
  values,
  onChange,
}: {
  fields: readonly CustomField[];
  values: Record<string, FieldInput>;
  onChange: (fieldId: string, value: FieldInput) => void;
}) {
  const shown = fillable(fields);
  if (shown.length === 0) return null;
  return (
    <fieldset class="tw-fields" data-testid="threadwork-fields">
      <legend>Fields of this board</legend>
      {shown.map((field) => (
        <FieldInputOf key={field.id} field={field} value={values[field.id]} onChange={onChange} />
      ))}
    </fieldset>
  );
}

function FieldInputOf({
  field,
  value,
  onChange,
}: {
  field: CustomField;
  value: FieldInput | undefined;
  onChange: (fieldId: string, value: FieldInput) => void;
}) {
  const common = {
    'data-testid': 'threadwork-field',
    'data-field-id': field.id,
    'data-field-type': field.type,
  };
  const text = typeof value === 'string' ? value : '';
  const chosen = Array.isArray(value) ? value : [];
  if (field.type === 'checkbox') {
    return (
      <label class="tw-check" {...common}>
        <input
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(field.id, event.currentTarget.checked)}
        />
        {field.name}
      </label>
    );
  }
  if (MANY_OPTIONS.has(field.type)) {
    return (
      <fieldset class="tw-field-options" {...common}>
        <legend>{field.name}</legend>
        {(field.options ?? []).map((option) => (
          <label key={option.id} class="tw-check">
            <input
              type="checkbox"
              value={option.id}
              checked={chosen.includes(option.id)}
              onChange={(event) =>
                onChange(
                  field.id,
                  event.currentTarget.checked
                    ? [...chosen, option.id]
                    : chosen.filter((id) => id !== option.id),
                )
              }
            />
            {option.label}
          </label>
        ))}
      </fieldset>
    );
  }
  if (ONE_OPTION.has(field.type)) {
    return (
      <label {...common}>
        {field.name}
        <select
          value={chosen[0] ?? ''}
          onChange={(event) => {
            const id = event.currentTarget.value;
            onChange(field.id, id === '' ? [] : [id]);
          }}
        >
          <option value="">—</option>
          {(field.options ?? []).map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (field.type === 'multiline_text') {
    return (
      <label {...common}>
        {field.name}
        <textarea rows={2} value={text} onInput={(event) => onChange(field.id, event.currentTarget.value)} />
      </label>
    );
  }
  return (
    <label {...common}>
      {field.name}
      <input
        type={(INPUT_TYPES[field.type] ?? 'text') as 'text'}
        value={text}
        {...(field.type === 'number' ? { step: 'any' } : {})}
        onInput={(event) => onChange(field.id, event.currentTarget.value)}
      />
    </label>
  );
}
