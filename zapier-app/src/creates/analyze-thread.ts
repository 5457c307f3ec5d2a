import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { analysis } from './resources.ts';

export default defineAction({
  key: 'analyze_thread',
  noun: 'Thread Analysis',
  label: 'Analyse Email Thread',
  description:
    "Creates an AI analysis of a mailbox thread's latest message: its urgency, sentiment and reply status.",
  inputFields: [
    threadField(),
    {
      key: 'message_id',
      label: 'Newest Message ID',
      required: false,
      helpText:
        'Optional: map the new message’s ID from the trigger (e.g. `18c2f0a1b2c3d4f0`), so each new message gets a fresh analysis. Without it, analysing the same thread again within 24 hours repeats the first answer (the step’s inputs make its Idempotency-Key).',
    },
  ],
  resource: analysis,
  // `message_id` is not sent: it only makes the step's Idempotency-Key differ per message.
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emailThreads.analyze(input.required('thread_id'), { idempotencyKey: idempotencyKey() }),
});
