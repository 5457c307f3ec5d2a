import type { InputField, Inputs } from './fields.ts';

/** Message fields shared by drafts, replies and new emails. */

export const recipientFields = (options: { toRequired: boolean }): InputField[] => [
  {
    key: 'to',
    label: 'To',
    list: true,
    required: options.toRequired,
    helpText:
      'Recipient addresses, one per line or several in one separated by commas, e.g. `bob@stone.test` or `Bob Stone <bob@stone.test>` (the form triggers give senders in).',
  },
  {
    key: 'cc',
    label: 'Cc',
    list: true,
    required: false,
    helpText: 'Copied addresses, as in To, e.g. `carol@cafe.test`.',
  },
  {
    key: 'bcc',
    label: 'Bcc',
    list: true,
    required: false,
    helpText: 'Blind-copied addresses, as in To, e.g. `boss@example.com`.',
  },
];

export const subjectField = (options: { required: boolean; helpText?: string }): InputField => ({
  key: 'subject',
  label: 'Subject',
  required: options.required,
  helpText: options.helpText ?? 'The subject line, e.g. `Your quote for the roof`.',
});

export const bodyFields: InputField[] = [
  {
    key: 'body',
    label: 'Body',
    type: 'text',
    required: true,
    helpText: 'The message, e.g. `Thanks Bob, we will look at it today.`',
  },
  {
    key: 'is_html',
    label: 'Body Is HTML',
    type: 'boolean',
    required: false,
    default: 'false',
    helpText:
      'Yes when the body is HTML (e.g. `<p>Thanks</p>`); no (the default here) sends it as plain text.',
  },
];

/** The body as typed, and whether it is HTML: plain text unless the user says otherwise. */
export function messageBody(input: Inputs) {
  return { body: input.body('body') ?? '', is_html: input.boolean('is_html') ?? false };
}

export function recipients(input: Inputs) {
  return { to: input.addresses('to'), cc: input.addresses('cc'), bcc: input.addresses('bcc') };
}
