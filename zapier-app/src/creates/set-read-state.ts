import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { thread } from './resources.ts';

export default defineAction({
  key: 'set_read_state',
  noun: 'Email Thread',
  label: 'Mark Email Thread Read or Unread',
  description: 'Updates a mailbox thread to read or unread.',
  inputFields: [
    threadField(),
    {
      key: 'read',
      label: 'Mark As Read',
      type: 'boolean',
      required: true,
      helpText: 'Yes marks the thread read; no marks it unread, e.g. `yes`.',
    },
  ],
  resource: thread,
  perform: ({ input, v2, idempotencyKey }) => {
    const read = input.boolean('read');
    return v2().emailThreads.setReadState(
      input.required('thread_id'),
      { read: read ?? Boolean(input.required('read')) },
      { idempotencyKey: idempotencyKey() },
    );
  },
});
