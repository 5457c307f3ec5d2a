import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, dropdownTrigger } from './dropdown.ts';

/** Dropdown: mailbox threads matching a search (the inbox by default), newest first. */
export default dropdownTrigger({
  key: 'threads',
  noun: 'Email Thread',
  label: 'New Email Thread',
  description: 'Triggers when an email thread arrives; lists mailbox threads for dropdowns.',
  inputFields: [
    {
      key: 'q',
      label: 'Search',
      helpText:
        'A mailbox search, as in the mailbox itself, e.g. `from:bob@stone.test is:unread`; the inbox when empty.',
    },
  ],
  load: async (z, bundle, cursor) => {
    const q =
      typeof bundle.inputData['q'] === 'string' && bundle.inputData['q'] !== ''
        ? bundle.inputData['q']
        : 'in:inbox';
    return (await v2Client(z, bundle)).emailThreads.search({ q, limit: DROPDOWN_PAGE_SIZE, cursor });
  },
  toItem: (thread) => ({
    id: thread.thread_id,
    subject: thread.subject ?? '(no subject)',
    snippet: thread.snippet,
    latest_message_at: thread.latest_message_at,
    participants: thread.participants.map((p) => p.email).join(', '),
  }),
  sample: {
    id: '18c2f0a1b2c3d4e5',
    subject: 'Quote',
    snippet: 'Could you send the annual price?',
    latest_message_at: '2026-01-05T09:00:00.000Z',
    participants: 'bob@stone.test, ada@example.com',
  },
  outputFields: [
    { key: 'id', label: 'Thread ID' },
    { key: 'subject', label: 'Subject' },
    { key: 'snippet', label: 'Snippet' },
    { key: 'latest_message_at', label: 'Latest Message At' },
    { key: 'participants', label: 'Participants' },
  ],
});
