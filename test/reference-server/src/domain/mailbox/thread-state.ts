// Changing a thread as a mail client does: read state, labels and snooze. Each answers the thread as
// GET /email-threads/{id} would (with its linked tasks, without messages). See docs/mailbox.md.
import type { EmailThread, LabelsRequest } from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { invalidField, notFound } from '../errors.ts';
import { getThread, openMailbox } from './index.ts';

// Sent mail and drafts are made by sending and drafting, not by relabelling.
const MANAGED_LABELS: ReadonlySet<string> = new Set(['SENT', 'DRAFT']);

async function changeThreadLabels(
  tx: Executor,
  userId: string,
  threadId: string,
  change: { add: string[]; remove: string[] },
  now: Date,
): Promise<EmailThread> {
  const provider = await openMailbox(tx, userId, now);
  if (!(await provider.modifyThreadLabels(threadId, change))) throw notFound('thread', threadId);
  return getThread(tx, userId, threadId, { messages: false }, now);
}

/** POST /email-threads/{id}/read-state: read removes UNREAD from every message, unread adds it. */
export function setReadState(
  tx: Executor,
  userId: string,
  threadId: string,
  read: boolean,
  now: Date,
): Promise<EmailThread> {
  const change = read ? { add: [], remove: ['UNREAD'] } : { add: ['UNREAD'], remove: [] };
  return changeThreadLabels(tx, userId, threadId, change, now);
}

/** POST /email-threads/{id}/labels: an unknown label id is a 400 that names it. */
export function changeLabels(
  tx: Executor,
  userId: string,
  threadId: string,
  request: LabelsRequest,
  now: Date,
): Promise<EmailThread> {
  const change = { add: request.add ?? [], remove: request.remove ?? [] };
  for (const side of ['add', 'remove'] as const) {
    const managed = change[side].filter((id) => MANAGED_LABELS.has(id));
    if (managed.length > 0) {
      throw invalidField(side, `${managed.join(', ')} cannot be changed here; send or draft mail instead`);
    }
  }
  return changeThreadLabels(tx, userId, threadId, change, now);
}

/**
 * POST /email-threads/{id}/snooze: the thread leaves the Inbox now and comes back at `until` on the
 * server's clock (a snooze may be moved by snoozing again). `until` must be after the server's now.
 */
export async function snoozeThread(
  tx: Executor,
  userId: string,
  threadId: string,
  until: string,
  now: Date,
): Promise<EmailThread> {
  const provider = await openMailbox(tx, userId, now);
  const at = new Date(until);
  if (at.getTime() <= now.getTime()) {
    throw invalidField('until', `must be in the future (the server's time is ${now.toISOString()})`);
  }
  if (!(await provider.snooze(threadId, at))) throw notFound('thread', threadId);
  return getThread(tx, userId, threadId, { messages: false }, now);
}
