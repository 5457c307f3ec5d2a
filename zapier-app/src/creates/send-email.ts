import { defineAction } from './define.ts';
import { defined, threadField } from './fields.ts';
import { bodyFields, messageBody, recipientFields, recipients, subjectField } from './mail.ts';
import { sentMessage } from './resources.ts';

export default defineAction({
  key: 'send_email',
  noun: 'Email',
  label: 'Send Email',
  description:
    'Creates and sends an email from the connected mailbox, optionally within an existing thread (the connection\'s API key needs the "Send email" permission).',
  inputFields: [
    ...recipientFields({ toRequired: true }),
    subjectField({ required: true }),
    ...bodyFields,
    threadField({
      required: false,
      helpText:
        'Optional: send it within this thread (pick one, or map its hex ID, e.g. `18c2f0a1b2c3d4e5`).',
    }),
  ],
  resource: sentMessage,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emails.send(
      defined({
        ...recipients(input),
        to: input.addresses('to') ?? [],
        subject: input.required('subject'),
        ...messageBody(input),
        thread_id: input.text('thread_id'),
      }),
      { idempotencyKey: idempotencyKey() },
    ),
});
