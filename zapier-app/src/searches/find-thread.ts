import { defineSearch } from '../creates/define.ts';
import { thread } from '../creates/resources.ts';

export default defineSearch({
  key: 'find_thread',
  noun: 'Email Thread',
  label: 'Find Email Thread',
  description: 'Finds mailbox threads with a mailbox search, newest first.',
  inputFields: [
    {
      key: 'q',
      label: 'Search Query',
      required: true,
      helpText:
        'Mailbox search syntax, e.g. `from:bob@stone.test subject:quote is:unread`, `label:Clients newer_than:7d` or plain words.',
    },
  ],
  resource: thread,
  perform: async ({ input, v2 }) =>
    (await v2().emailThreads.search({ q: input.required('q'), limit: 10 })).data,
});
