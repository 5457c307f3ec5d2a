import { REPLY_MODES } from '@threadwork/shared/light';
import { defineAction } from './define.ts';
import { threadField } from './fields.ts';
import { bodyFields, messageBody } from './mail.ts';
import { sentMessage } from './resources.ts';

export default defineAction({
  key: 'reply_to_thread',
  noun: 'Reply',
  label: 'Reply to Email Thread',
  description: "Creates and sends a reply in a mailbox thread, to the thread's sender or to everyone on it.",
  inputFields: [
    threadField(),
    ...bodyFields,
    {
      key: 'mode',
      label: 'Reply To',
      required: false,
      choices: [
        { value: 'reply', label: 'Sender Only', sample: 'reply' },
        { value: 'reply_all', label: 'Everyone on the Thread', sample: 'reply_all' },
      ],
      helpText:
        'Who gets the reply, e.g. `reply_all`: `reply` (the default) answers the sender, honoring Reply-To; `reply_all` keeps the To and Cc audience.',
    },
  ],
  resource: sentMessage,
  perform: ({ input, v2, idempotencyKey }) => {
    const mode = input.choice('mode', REPLY_MODES);
    return v2().emailThreads.reply(
      input.required('thread_id'),
      { ...messageBody(input), ...(mode === undefined ? {} : { mode }) },
      { idempotencyKey: idempotencyKey() },
    );
  },
});
