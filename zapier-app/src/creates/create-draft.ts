import { defineAction } from './define.ts';
import { defined, threadField } from './fields.ts';
import { bodyFields, messageBody, recipientFields, recipients, subjectField } from './mail.ts';
import { draft } from './resources.ts';

export default defineAction({
  key: 'create_draft',
  noun: 'Draft',
  label: 'Create Draft',
  description:
    'Creates an email draft in the mailbox, as a reply in a thread or as a new message; you review and send it there.',
  inputFields: [
    threadField({
      required: false,
      helpText:
        'Leave empty for a new message; or pick a thread (or map its hex ID, e.g. `18c2f0a1b2c3d4e5`) to draft a reply in it.',
    }),
    ...recipientFields({ toRequired: false }),
    subjectField({
      required: false,
      helpText:
        'Required for a new message, e.g. `Your quote`; in a thread it defaults to `Re: <thread subject>`.',
    }),
    ...bodyFields,
  ],
  resource: draft,
  perform: ({ input, v2, idempotencyKey }) => {
    const threadId = input.text('thread_id');
    const fields = defined({ ...recipients(input), subject: input.text('subject'), ...messageBody(input) });
    const options = { idempotencyKey: idempotencyKey() };
    if (threadId !== undefined) return v2().emailThreads.createDraft(threadId, fields, options);
    return v2().drafts.create(
      { ...fields, to: input.addresses('to') ?? [], subject: input.required('subject') },
      options,
    );
  },
});
