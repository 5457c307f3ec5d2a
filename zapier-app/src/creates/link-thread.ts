import { defineAction } from './define.ts';
import { defined, taskFields, threadField } from './fields.ts';
import { linkThreadResult } from './resources.ts';

export default defineAction({
  key: 'link_thread',
  noun: 'Thread Link',
  label: 'Link Email Thread to Task',
  description:
    'Creates a link between a task and a mailbox thread (linking one already linked changes nothing).',
  inputFields: [
    ...taskFields(),
    threadField(),
    {
      key: 'archive',
      label: 'Archive the Thread',
      type: 'boolean',
      required: false,
      default: 'false',
      helpText: 'Yes also archives the thread in the mailbox (it leaves the Inbox), e.g. `no`.',
    },
  ],
  resource: linkThreadResult,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().tasks.linkThread(
      input.required('task_id'),
      defined({ thread_id: input.required('thread_id'), archive: input.boolean('archive') }),
      { idempotencyKey: idempotencyKey() },
    ),
});
