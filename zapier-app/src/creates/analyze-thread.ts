import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { analysis } from './resources.ts';

export default defineAction({
  key: 'analyze_thread',
  noun: 'Thread Analysis',
  label: 'Analyse Email Thread',
  description:
    "Creates an AI analysis of a mailbox thread's latest message: its urgency, sentiment and reply status.",
  inputFields: [threadField()],
  resource: analysis,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emailThreads.analyze(input.required('thread_id'), { idempotencyKey: idempotencyKey() }),
});
