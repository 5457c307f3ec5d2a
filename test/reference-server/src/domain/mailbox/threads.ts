// Building the API's EmailThread and EmailMessage views from stored messages. Pure functions: the
// provider loads the rows, these shape them.
import type { EmailAddress, EmailMessage, EmailThread } from '@threadwork/shared/schemas';
import { htmlToText, type SearchableMessage } from './search.ts';

/** A stored message with its label ids, as the local provider loads it. */
export interface StoredMessage extends SearchableMessage {
  id: string;
  thread_id: string;
  snippet: string | null;
  /** The address a reply answers instead of `from`; null when the message names none. */
  reply_to: EmailAddress | null;
  bcc: EmailAddress[];
}

/** A draft is not yet mail: it never decides a thread's direction or the message a reply answers. */
export const isDraft = (message: { labels: readonly string[] }) => message.labels.includes('DRAFT');

export interface ViewOptions {
  /** Include body_text and body_html (include=messages, scope email.body.read). */
  bodies: boolean;
}

const SNIPPET_LENGTH = 120;

/** The first characters of a message's text with whitespace collapsed (as the seed loader stores it). */
export function snippetOf(bodyText: string | null, bodyHtml: string | null): string | null {
  const text = bodyText ?? (bodyHtml === null ? null : htmlToText(bodyHtml));
  return text === null ? null : text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_LENGTH);
}

/** A thread's sort key: the time (epoch ms) of its latest dated message, -1 when none has a date. */
export function latestTime(dates: readonly (string | null)[]): number {
  let latest = -1;
  for (const date of dates) {
    const time = date === null ? Number.NaN : Date.parse(date);
    if (!Number.isNaN(time) && time > latest) latest = time;
  }
  return latest;
}

type MessageOrder = Pick<StoredMessage, 'id' | 'date'>;

/** Oldest first; messages without a date before dated ones, then by id, so the order is stable. */
export function compareMessages(a: MessageOrder, b: MessageOrder): number {
  if (a.date !== b.date) {
    if (a.date === null) return -1;
    if (b.date === null) return 1;
    const byTime = Date.parse(a.date) - Date.parse(b.date);
    if (byTime !== 0) return byTime;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function messageView(message: StoredMessage, options: ViewOptions): EmailMessage {
  const view: EmailMessage = {
    id: message.id,
    subject: message.subject,
    from: { email: message.from.email, name: message.from.name },
    to: message.to.map((address) => ({ email: address.email, name: address.name })),
    cc: message.cc.map((address) => ({ email: address.email, name: address.name })),
    date: message.date,
    snippet: message.snippet,
    unread: message.labels.includes('UNREAD'),
    labels: [...message.labels],
  };
  if (options.bodies) {
    view.body_text = message.body_text;
    view.body_html = message.body_html;
  }
  return view;
}

/** Everyone on the thread, unique by address (case-insensitive), in order of first appearance. */
export function participantsOf(messages: readonly StoredMessage[]): EmailAddress[] {
  const byEmail = new Map<string, EmailAddress>();
  for (const message of messages) {
    for (const address of [message.from, ...message.to, ...message.cc]) {
      const key = address.email.toLowerCase();
      const seen = byEmail.get(key);
      if (!seen) byEmail.set(key, { email: address.email, name: address.name });
      // A later message may name someone the first one gave only an address for.
      else if (seen.name === null && address.name !== null) seen.name = address.name;
    }
  }
  return [...byEmail.values()];
}

export interface ThreadViewInput {
  providerId: string;
  /** The mailbox owner's address: the latest message from it makes the thread outbound. */
  ownerEmail: string;
  threadId: string;
  /** Oldest first (see compareMessages). */
  messages: readonly StoredMessage[];
}

/** An EmailThread without linked_tasks; with `messages` only when bodies are asked for. */
export function threadView(input: ThreadViewInput, options: ViewOptions): EmailThread {
  const { messages } = input;
  const first = messages[0];
  const latest = messages.at(-1);
  const latestDated = messages.findLast((message) => message.date !== null);
  const latestMail = messages.findLast((message) => !isDraft(message));
  const view: EmailThread = {
    provider: input.providerId,
    thread_id: input.threadId,
    message_ids: messages.map((message) => message.id),
    subject: first?.subject ?? null,
    participants: participantsOf(messages),
    latest_message_at: latestDated?.date ?? null,
    snippet: latest?.snippet ?? null,
    direction: latestMail
      ? latestMail.from.email.toLowerCase() === input.ownerEmail.toLowerCase()
        ? 'outbound'
        : 'inbound'
      : null,
    unread: messages.some((message) => message.labels.includes('UNREAD')),
  };
  if (options.bodies) view.messages = messages.map((message) => messageView(message, options));
  return view;
}
