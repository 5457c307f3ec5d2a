/**
 * "New Reply on a Thread": a v2 webhook on `thread.reply_received`. `perform` checks the delivery's
 * `x-service-signature` over the raw body with the subscription's secret (300 s tolerance) and rejects a
 * bad or stale one before reading anything; it makes no request.
 */
import { type EmailMessage, type EmailThread, type LinkedTask, NotFoundError } from '@threadwork/shared';
import { constructEvent, SIGNATURE_HEADER, WebhookSignatureError } from '@threadwork/shared/webhooks';
import type { Bundle, Trigger, ZObject } from 'zapier-platform-core';
import { exchangeCredentials } from '../authentication.ts';
import { v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';
import { runKey } from '../lib/idempotency.ts';
import { deliveryHeader } from './hook-request.ts';

export const REPLY_EVENT = 'thread.reply_received';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

interface ReplySubscription {
  id: string;
  secret: string;
}

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

const performSubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
  const token = await exchangeCredentials(z, bundle);
  const scope = bundle.inputData['scope'] === 'all' ? 'all' : 'tasked';
  // One key per subscribe (its retries resend it): a key derived from the target URL would, after the hook
  // was deleted, replay the deleted subscription instead of creating a live one.
  const created = await v2Client(z, bundle, { token }).webhooks.create(
    { target_url: bundle.targetUrl ?? '', events: [REPLY_EVENT], filters: { scope } },
    { idempotencyKey: runKey('new_thread_reply.subscribe') },
  );
  // Zapier keeps what this returns as `subscribeData`: the id to unsubscribe, the secret to verify with.
  return { id: created.id, secret: created.secret, scope };
});

const performUnsubscribe = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
  const subscriptionId = bundle.subscribeData?.id;
  if (subscriptionId === undefined) return {};
  const token = await exchangeCredentials(z, bundle);
  try {
    await v2Client(z, bundle, { token }).webhooks.delete(subscriptionId);
  } catch (error) {
    // Already gone (deleted in the service, or by an earlier turn-off): the Zap can be turned off all the same.
    if (!(error instanceof NotFoundError)) throw error;
  }
  return {};
});

const perform = async (z: ZObject, bundle: Bundle) => {
  const { secret } = (bundle.subscribeData ?? {}) as Partial<ReplySubscription>;
  const header = deliveryHeader(bundle, SIGNATURE_HEADER);
  const body = bundle.rawRequest?.content;
  if (secret === undefined || header === undefined || body === undefined) {
    throw new z.errors.Error('Rejected a delivery without a signature.', 'invalid_signature', 401);
  }
  let event: ReturnType<typeof constructEvent>;
  try {
    event = constructEvent(body, header, secret, { toleranceSeconds: SIGNATURE_TOLERANCE_SECONDS });
  } catch (error) {
    const reason = error instanceof WebhookSignatureError ? error.reason : 'invalid_payload';
    throw new z.errors.Error(
      `Rejected a delivery: ${error instanceof Error ? error.message : String(error)}`,
      reason,
      401,
    );
  }
  if (event.type !== REPLY_EVENT) return [];
  const data = event.data as { thread: EmailThread; message: EmailMessage; linked_tasks: LinkedTask[] };
  return [replyOutput(event.id, data.thread, data.message, data.linked_tasks)];
};

/** Threads read for samples at most (each is one request); samples shown at most. */
const SAMPLE_THREADS = 20;
const SAMPLE_LIMIT = 10;

/**
 * Samples shaped as deliveries: for the newest inbox threads in the trigger's scope (linked to a task
 * unless "Every Thread"), the newest message someone else sent, with its sender and the linked tasks.
 */
const performList = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
  const scope = bundle.inputData['scope'] === 'all' ? 'all' : 'tasked';
  const client = v2Client(z, bundle);
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
});

/** A sample's event id: one per reply (message), never a thread's or message's own id. */
function sampleEventId(messageId: string): string {
  return `evt_sample_${messageId}`;
}

export default {
  key: 'new_thread_reply',
  noun: 'Reply',
  display: {
    label: 'New Reply on a Thread',
    description:
      'Triggers when a reply arrives on an email thread (by default only threads linked to a task).',
  },
  operation: {
    type: 'hook',
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
    performSubscribe,
    performUnsubscribe,
    perform,
    performList,
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
  },
} as Trigger;
