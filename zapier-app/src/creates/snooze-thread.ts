import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { thread } from './resources.ts';

export default defineAction({
  key: 'snooze_thread',
  noun: 'Email Thread',
  label: 'Snooze Email Thread',
  description: 'Updates a mailbox thread to leave the Inbox until a time, when it returns.',
  inputFields: [
    threadField(),
    {
      key: 'until',
      label: 'Snooze Until',
      type: 'datetime',
      required: true,
      helpText:
        'When the thread returns to the Inbox; must be in the future, e.g. `2026-01-12T08:00:00Z` or `monday 8am`.',
    },
  ],
  resource: thread,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emailThreads.snooze(
      input.required('thread_id'),
      { until: input.datetime('until') ?? input.required('until') },
      { idempotencyKey: idempotencyKey() },
    ),
});
