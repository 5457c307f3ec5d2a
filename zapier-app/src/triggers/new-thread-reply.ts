/**
 * "New Reply on a Thread": a v2 webhook on `thread.reply_received` (the webhook factory subscribes,
 * unsubscribes and verifies each delivery's signature), with the mailbox scope as the subscription's filter.
 */
import type { EmailMessage, EmailThread, LinkedTask } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { webhookTrigger } from './webhook.ts';

export const REPLY_EVENT = 'thread.reply_received';

/** One reply as the trigger outputs it: the message's fields at the top level. */
export function replyOutput(
  id: string,
  thread: EmailThread,
  message: Pick<EmailMessage, 'id' | 'subject' | 'from' | 'date' | 'snippet'> | undefined,
  linkedTasks: LinkedTask[],
) {
  return {
    id,
    thread_id: thread.thread_id,
    message_id: message?.id ?? thread.message_ids.at(-1) ?? null,
    subject: message?.subject ?? thread.subject,
    from_email: message?.from.email ?? null,
    from_name: message?.from.name ?? null,
    date: message?.date ?? thread.latest_message_at,
    snippet: message?.snippet ?? thread.snippet,
    participants: thread.participants.map((participant) => participant.email).join(', '),
    linked_task_ids: linkedTasks.map((task) => task.id),
    linked_task_titles: linkedTasks.map((task) => task.title ?? ''),
  };
}

/** Threads read for samples at most (each is one request); samples shown at most. */
const SAMPLE_THREADS = 20;
const SAMPLE_LIMIT = 10;

/**
 * Samples shaped as deliveries: for the newest inbox threads in the trigger's scope (linked to a task
 * unless "Every Thread"), the newest message someone else sent, with its sender and the linked tasks.
 */
const performList = async (z: ZObject, bundle: Bundle) => {
  const scope = bundle.inputData['scope'] === 'all' ? 'all' : 'tasked';
  const client = await v2Client(z, bundle);
  const page = await client.emailThreads.search({ q: 'in:inbox', limit: SAMPLE_THREADS });
  const samples: Array<ReturnType<typeof replyOutput>> = [];
  for (const found of page.data) {
    if (samples.length >= SAMPLE_LIMIT) break;
    const thread = await client.emailThreads.get(found.thread_id, { include: 'messages' });
    const linked = thread.linked_tasks ?? [];
    if (scope === 'tasked' && linked.length === 0) continue;
    const reply = (thread.messages ?? [])
      .toSorted((a, b) => Date.parse(a.date ?? '') - Date.parse(b.date ?? ''))
      .filter((message) => !message.labels.includes('SENT') && !message.labels.includes('DRAFT'))
      .at(-1);
    if (reply === undefined) continue;
    samples.push(replyOutput(sampleEventId(reply.id), thread, reply, linked));
  }
  return samples;
};

/** A sample's event id: one per reply (message), never a thread's or message's own id. */
function sampleEventId(messageId: string): string {
  return `evt_sample_${messageId}`;
}

export default webhookTrigger({
  key: 'new_thread_reply',
  noun: 'Reply',
  label: 'New Reply on a Thread',
  description: 'Triggers when a reply arrives on an email thread (by default only threads linked to a task).',
  event: REPLY_EVENT,
  // Kept in `subscribeData` beside the subscription's id and secret.
  filters: (bundle) => ({ scope: bundle.inputData['scope'] === 'all' ? 'all' : 'tasked' }),
  output: (event) => {
    const data = event.data as { thread: EmailThread; message: EmailMessage; linked_tasks: LinkedTask[] };
    return replyOutput(event.id, data.thread, data.message, data.linked_tasks);
  },
  performList,
  inputFields: [
    {
      key: 'scope',
      label: 'Threads',
      required: false,
      default: 'tasked',
      choices: [
        { value: 'tasked', label: 'Threads Linked to a Task', sample: 'tasked' },
        { value: 'all', label: 'Every Thread', sample: 'all' },
      ],
      helpText:
        'Which replies trigger: threads linked to a task (the default) or every inbound message, e.g. `tasked`.',
    },
  ],
  sample: {
    id: 'evt_4b7e1c9a2d5f8e3b',
    thread_id: '18c2f0a1b2c3d4e5',
    message_id: '18c2f0a1b2c3d4f9',
    subject: 'Re: Quote',
    from_email: 'bob@stone.test',
    from_name: 'Bob Stone',
    date: '2026-01-06T08:30:00.000Z',
    snippet: 'Thanks, the annual plan works for us.',
    participants: 'bob@stone.test, ada@example.com',
    linked_task_ids: ['tsk_65a1f0c2d3e4b5a6c7d8e9f0'],
    linked_task_titles: ['Call Bob about the quote'],
  },
  outputFields: [
    { key: 'id', label: 'Event ID' },
    { key: 'thread_id', label: 'Thread ID' },
    { key: 'message_id', label: 'Message ID' },
    { key: 'subject', label: 'Subject' },
    { key: 'from_email', label: 'From Email' },
    { key: 'from_name', label: 'From Name' },
    { key: 'date', label: 'Received At', type: 'datetime' },
    { key: 'snippet', label: 'Snippet' },
    { key: 'participants', label: 'Participants' },
    { key: 'linked_task_ids', label: 'Linked Task IDs' },
    { key: 'linked_task_titles', label: 'Linked Task Titles' },
  ],
});
