// Drafts: messages with the DRAFT label that wait in the mailbox until the user (or a key with the
// opt-in email.send scope) sends them, or a key with drafts.delete discards them. See docs/mailbox.md.
import type {
  CreateDraftRequest,
  CreateNewDraftRequest,
  Deleted,
  Draft,
  SentMessage,
} from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { notFound } from '../errors.ts';
import type { Page, PageRequest } from '../pagination.ts';
import { addressesOf, newMessage, repliedMessage, replyAudience } from './compose.ts';
import { openMailbox } from './index.ts';
import { bodyParts, replySubject } from './message-text.ts';

/**
 * POST /email-threads/{id}/drafts: a reply draft. Without `to` it is addressed as a `reply` would be;
 * the subject defaults to `Re: <thread subject>`.
 */
export async function createThreadDraft(
  tx: Executor,
  userId: string,
  threadId: string,
  request: CreateDraftRequest,
  now: Date,
): Promise<Draft> {
  const provider = await openMailbox(tx, userId, now);
  const thread = await provider.threadMessages(threadId);
  if (!thread) throw notFound('thread', threadId);
  const answered = repliedMessage(thread);
  const audience =
    request.to === undefined && answered
      ? replyAudience(answered, provider.mailbox.email_address, 'reply')
      : { to: addressesOf(request.to), cc: [] };
  const draft = await provider.createDraft(
    threadId,
    {
      to: audience.to,
      cc: request.cc === undefined ? audience.cc : addressesOf(request.cc),
      bcc: addressesOf(request.bcc),
      subject: request.subject ?? replySubject(thread.subject),
      ...bodyParts(request.body, request.is_html),
    },
    now,
  );
  return draft as Draft;
}

/** POST /drafts: a draft that starts a new thread. */
export async function createDraft(
  tx: Executor,
  userId: string,
  request: CreateNewDraftRequest,
  now: Date,
): Promise<Draft> {
  const provider = await openMailbox(tx, userId, now);
  return (await provider.createDraft(null, newMessage(request), now)) as Draft;
}

/** GET /drafts: oldest first. */
export async function listDrafts(
  db: Executor,
  userId: string,
  page: PageRequest,
  now: Date,
): Promise<Page<Draft>> {
  return (await openMailbox(db, userId, now)).listDrafts(page);
}

/** POST /drafts/{id}/send: the draft's message is sent as it stands and the draft is gone. */
export async function sendDraft(
  tx: Executor,
  userId: string,
  draftId: string,
  now: Date,
): Promise<SentMessage> {
  const sent = await (await openMailbox(tx, userId, now)).sendDraft(draftId, now);
  if (!sent) throw notFound('draft', draftId);
  return sent;
}

/** DELETE /drafts/{id}: the draft and its message are gone (and its thread, if nothing else is in it). */
export async function deleteDraft(
  tx: Executor,
  userId: string,
  draftId: string,
  now: Date,
): Promise<Deleted> {
  if (!(await (await openMailbox(tx, userId, now)).deleteDraft(draftId))) throw notFound('draft', draftId);
  return { id: draftId, deleted: true };
}
