import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { analysis } from './resources.ts';

export default defineAction({
  key: 'analyze_thread',
  noun: 'Thread Analysis',
  label: 'Analyze Email Thread',
  description:
    "Creates an AI analysis of a mailbox thread's latest message: its urgency, sentiment and reply status.",
  inputFields: [
    threadField(),
    {
      key: 'message_id',
      label: 'Newest Message ID',
      required: false,
      helpText:
        'Optional, and not sent: each run analyzes the thread’s newest message anew. Kept for Zaps that map the new message’s ID here (e.g. `18c2f0a1b2c3d4f0`); to analyze each message only once even when Zapier replays a run, map it into Only Once Per instead.',
    },
  ],
  resource: analysis,
  // `message_id` is not sent (it once made the key differ per message; every run now has its own key).
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emailThreads.analyze(input.required('thread_id'), { idempotencyKey: idempotencyKey() }),
});
