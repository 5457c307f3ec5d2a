// Writing mail as the mailbox owner: replies (whose recipients come from the thread) and new messages.
// The rules for who a reply goes to are recorded in docs/mailbox.md, "Reply audiences".
import type {
  CreateNewDraftRequest,
  ReplyRequest,
  SendEmailRequest,
  SentMessage,
} from '@threadwork/shared/schemas';
import type { Executor } from '../../db/executor.ts';
import { invalidField, notFound } from '../errors.ts';
import { openMailbox } from './index.ts';
import { bodyParts, replySubject } from './message-text.ts';
import type { Address, MailMessage, OutgoingMessage, ThreadMessages } from './provider.ts';
import { isDraft } from './threads.ts';

export type ReplyMode = ReplyRequest['mode'];

const key = (address: Address) => address.email.toLowerCase();

/** Unique by address (case-insensitive), first naming kept, without `exclude`'s addresses. */
function uniqueAddresses(addresses: readonly Address[], exclude: ReadonlySet<string> = new Set()): Address[] {
  const seen = new Set(exclude);
  const unique: Address[] = [];
  for (const address of addresses) {
    if (seen.has(key(address))) continue;
    seen.add(key(address));
    unique.push({ email: address.email, name: address.name });
  }
  return unique;
}

/** The message a reply answers: the thread's newest message that is not a draft. */
export function repliedMessage(thread: ThreadMessages): MailMessage | undefined {
  return thread.messages.findLast((message) => !isDraft(message));
}

/**
 * Who a reply to `message` goes to. `reply` answers its Reply-To, else its sender; `reply_all` adds
 * its To and Cc. Answering one's own message writes to its recipients again. The owner is never
 * among the recipients, unless nobody else is (a note to self).
 */
export function replyAudience(
  message: MailMessage,
  ownerEmail: string,
  mode: ReplyMode,
): { to: Address[]; cc: Address[] } {
  const owner = ownerEmail.toLowerCase();
  const fromOwner = key(message.from) === owner;
  const primary = fromOwner ? [...message.to] : [message.reply_to ?? message.from];
  const toAll = mode === 'reply_all' ? [...primary, ...(fromOwner ? [] : message.to)] : primary;
  const to = uniqueAddresses(toAll, new Set([owner]));
  const cc = mode === 'reply_all' ? uniqueAddresses(message.cc, new Set([owner, ...to.map(key)])) : [];
  if (to.length === 0 && cc.length === 0) return { to: [{ email: ownerEmail, name: null }], cc: [] };
  if (to.length === 0) return { to: cc, cc: [] };
  return { to, cc };
}

/** Request addresses are bare strings; stored mail names no one it was not told of. */
export const addressesOf = (emails: readonly string[] | undefined): Address[] =>
  (emails ?? []).map((email) => ({ email, name: null }));

/** A message that starts out as the request says (POST /emails, POST /drafts): no thread decides its audience. */
export const newMessage = (request: CreateNewDraftRequest): OutgoingMessage => ({
  to: addressesOf(request.to),
  cc: addressesOf(request.cc),
  bcc: addressesOf(request.bcc),
  subject: request.subject,
  ...bodyParts(request.body, request.is_html),
});

/** POST /email-threads/{id}/reply: sends a reply in the thread; its recipients come from the thread. */
export async function replyToThread(
  tx: Executor,
  userId: string,
  threadId: string,
  request: ReplyRequest,
  now: Date,
): Promise<SentMessage> {
  const provider = await openMailbox(tx, userId, now);
  const thread = await provider.threadMessages(threadId);
  if (!thread) throw notFound('thread', threadId);
  const answered = repliedMessage(thread);
  if (!answered) throw invalidField('thread', `thread ${threadId} has no message to reply to`);
  const audience = replyAudience(answered, provider.mailbox.email_address, request.mode);
  const message: OutgoingMessage = {
    ...audience,
    bcc: [],
    subject: replySubject(thread.subject),
    ...bodyParts(request.body, request.is_html),
  };
  return (await provider.send(threadId, message, now)) as SentMessage;
}

/** POST /emails: a new message, or one sent into an existing thread (404 when there is none). */
export async function sendEmail(
  tx: Executor,
  userId: string,
  request: SendEmailRequest,
  now: Date,
): Promise<SentMessage> {
  const provider = await openMailbox(tx, userId, now);
  const sent = await provider.send(request.thread_id ?? null, newMessage(request), now);
  if (!sent) throw notFound('thread', request.thread_id ?? '');
  return sent;
}
