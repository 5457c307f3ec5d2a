// AI analysis of a mailbox thread: a deterministic classifier (no network, no model download) that
// reads the thread's newest message, a cache of its answer per thread, and the AI-managed custom
// fields it writes on the tasks linked to the thread. Rules and field mapping: docs/mailbox.md, "AI analysis".
import {
  type CustomFieldValue,
  SENTIMENTS,
  THREAD_STATUSES,
  type ThreadAnalysis,
  URGENCIES,
} from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import { findAnalysis, storeAnalysis } from '../storage/analysis.ts';
import { findTaskValue, setTaskValue } from '../storage/custom-fields.ts';
import { boardsOfTasks } from '../storage/tasks.ts';
import { boardFields } from './custom-fields.ts';
import { invalidField, notFound } from './errors.ts';
import { linkedTasksOf, openMailbox } from './mailbox/index.ts';
import type { MailboxProvider, MailMessage } from './mailbox/provider.ts';
import { htmlToText, wordsOf } from './mailbox/search.ts';
import { isDraft } from './mailbox/threads.ts';
import { recordFieldValueChanges } from './tasks/record.ts';

/** Names the rules below; a change to them is a new model name, so cached answers can be told apart. */
export const ANALYSIS_MODEL = 'threadwork-rules-1';

export type Classification = Pick<ThreadAnalysis, 'urgency' | 'sentiment' | 'status'>;

const HIGH_URGENCY = ['urgent', 'urgently', 'asap', 'immediately', 'emergency', 'critical', 'outage'];
const HIGH_URGENCY_PHRASES = ['as soon as possible', 'right away', 'end of day', 'by today'];
const MEDIUM_URGENCY = ['soon', 'tomorrow', 'deadline', 'reminder', 'overdue', 'important'];
const MEDIUM_URGENCY_PHRASES = ['this week', 'by friday', 'by monday'];
const POSITIVE = [
  'thanks',
  'thank',
  'great',
  'appreciate',
  'appreciated',
  'happy',
  'glad',
  'excellent',
  'love',
  'perfect',
  'wonderful',
  'awesome',
  'pleased',
];
const NEGATIVE = [
  'unhappy',
  'disappointed',
  'disappointing',
  'angry',
  'problem',
  'problems',
  'issue',
  'issues',
  'broken',
  'complaint',
  'refund',
  'terrible',
  'awful',
  'frustrated',
  'frustrating',
  'wrong',
  'failed',
  'failure',
  'unacceptable',
  'worst',
  'bad',
  'poor',
];
const REQUEST_PHRASES = [
  'please',
  'could you',
  'can you',
  'would you',
  'will you',
  'let me know',
  'are you',
  'do you',
  'need you',
];
const REQUEST_PATTERN = new RegExp(` (${REQUEST_PHRASES.join('|')}) `);
const RESOLVED_PHRASES = [
  'resolved',
  'fixed',
  'all set',
  'sorted',
  'no further action',
  'works now',
  'closed',
];
const AUTOMATED_SENDERS =
  /^(no-?reply|do-?not-?reply|donotreply|notifications?|newsletter|news|mailer-daemon)$/;
const BULK_LABELS = ['CATEGORY_PROMOTIONS', 'CATEGORY_UPDATES', 'CATEGORY_SOCIAL', 'CATEGORY_FORUMS'];

/** Classifies a thread by its newest message; `ownerEmail` tells sent mail from received mail. */
export function classify(message: MailMessage, ownerEmail: string): Classification {
  const body = message.body_text ?? (message.body_html === null ? '' : htmlToText(message.body_html));
  const raw = `${message.subject ?? ''}\n${body}`;
  const words = wordsOf(raw);
  const wordSet = new Set(words);
  // Phrases are matched on whole words: ` let me know ` in ` … let me know … `.
  const spaced = ` ${words.join(' ')} `;
  const hasWord = (list: readonly string[]) => list.some((word) => wordSet.has(word));
  const hasPhrase = (list: readonly string[]) => list.some((phrase) => spaced.includes(` ${phrase} `));

  const fromOwner = message.from.email.toLowerCase() === ownerEmail.toLowerCase();
  const sender = message.from.email.toLowerCase().split('@')[0] ?? '';
  const automated =
    AUTOMATED_SENDERS.test(sender) ||
    wordSet.has('unsubscribe') ||
    message.labels.some((label) => BULK_LABELS.includes(label));
  // Whether the message asks something is read from its body: a reply's subject repeats the first
  // message's question. A message without a body is read by its subject.
  const prose = body.trim() === '' ? (message.subject ?? '') : body;
  const asks = prose.includes('?') || ` ${wordsOf(prose).join(' ')} `.match(REQUEST_PATTERN) !== null;

  let status: Classification['status'];
  if (fromOwner) status = 'waiting';
  else if (automated) status = 'fyi';
  else if (asks) status = 'needs_reply';
  else if (hasPhrase(RESOLVED_PHRASES)) status = 'resolved';
  else status = 'fyi';

  let urgency: Classification['urgency'] = 'low';
  if (hasWord(HIGH_URGENCY) || hasPhrase(HIGH_URGENCY_PHRASES)) urgency = 'high';
  else if (
    hasWord(MEDIUM_URGENCY) ||
    hasPhrase(MEDIUM_URGENCY_PHRASES) ||
    status === 'needs_reply' ||
    message.labels.includes('IMPORTANT')
  ) {
    urgency = 'medium';
  }

  const score =
    words.filter((word) => POSITIVE.includes(word)).length -
    words.filter((word) => NEGATIVE.includes(word)).length;
  const sentiment: Classification['sentiment'] = score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral';
  return { urgency, sentiment, status };
}

/** The message an analysis is of: the thread's newest message that is not a draft. */
async function newestMessage(provider: MailboxProvider, threadId: string): Promise<MailMessage | null> {
  const thread = await provider.threadMessages(threadId);
  if (!thread) throw notFound('thread', threadId);
  return thread.messages.findLast((message) => !isDraft(message)) ?? null;
}

async function cachedAnalysis(
  db: Executor,
  mailboxId: string,
  threadId: string,
): Promise<ThreadAnalysis | null> {
  const row = await findAnalysis(db, mailboxId, threadId);
  return (row as ThreadAnalysis | undefined) ?? null;
}

/**
 * GET /email-threads/{id}/analysis: the cached analysis while it is of the thread's newest message;
 * 404 when the thread was never classified or a newer message has arrived since.
 */
export async function getAnalysis(
  db: Executor,
  userId: string,
  threadId: string,
  now: Date,
): Promise<ThreadAnalysis> {
  const provider = await openMailbox(db, userId, now);
  const newest = await newestMessage(provider, threadId);
  const cached = await cachedAnalysis(db, provider.mailbox.id, threadId);
  if (!cached || !newest || cached.message_id !== newest.id) {
    throw notFound('analysis of thread', threadId);
  }
  return cached;
}

/**
 * POST /email-threads/{id}/analysis: classifies the thread unless the cached analysis is already of
 * its newest message (then that one is answered unchanged), stores it, and writes the AI-managed
 * custom fields of the tasks linked to the thread.
 */
export async function analyzeThread(
  tx: Executor,
  userId: string,
  threadId: string,
  now: Date,
): Promise<ThreadAnalysis> {
  const provider = await openMailbox(tx, userId, now);
  const newest = await newestMessage(provider, threadId);
  if (!newest) throw invalidField('thread', `thread ${threadId} has no message to classify`);
  const cached = await cachedAnalysis(tx, provider.mailbox.id, threadId);
  if (cached && cached.message_id === newest.id) return cached;

  const analysis: ThreadAnalysis = {
    thread_id: threadId,
    message_id: newest.id,
    ...classify(newest, provider.mailbox.email_address),
    analyzed_at: now.toISOString(),
    model: ANALYSIS_MODEL,
  };
  const { thread_id: _thread, ...stored } = analysis;
  await storeAnalysis(tx, provider.mailbox.id, threadId, stored);
  await writeAiFields(tx, userId, threadId, analysis, now);
  return analysis;
}

// Which of the analysis's answers an AI field holds is told by its options' labels, compared without
// case, spaces or punctuation ("Needs reply" is needs_reply).
const DIMENSIONS = [
  { key: 'status', values: THREAD_STATUSES },
  { key: 'urgency', values: URGENCIES },
  { key: 'sentiment', values: SENTIMENTS },
] as const;
const normal = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The option an AI field takes for an analysis: undefined when the field holds none of its answers. */
export function aiFieldOption(
  options: readonly { id: string; label: string }[],
  analysis: Classification,
): { id: string } | null | undefined {
  const labels = options.map((option) => normal(option.label));
  const dimension = DIMENSIONS.find(({ values }) => values.some((value) => labels.includes(normal(value))));
  if (!dimension) return undefined;
  const wanted = normal(analysis[dimension.key]);
  // The field lacks an option for this answer: its value is cleared rather than left stale.
  return options.find((option) => normal(option.label) === wanted) ?? null;
}

/**
 * Sets each AI-managed option field on the boards of the thread's linked tasks (those the user can
 * reach) to the option matching the analysis; the tasks whose value changed record task.updated.
 */
async function writeAiFields(
  tx: Executor,
  userId: string,
  threadId: string,
  analysis: Classification,
  now: Date,
): Promise<void> {
  const linked = await linkedTasksOf(tx, userId, threadId);
  if (linked.length === 0) return;
  const boardOf = await boardsOfTasks(
    tx,
    linked.map((task) => task.id),
  );
  const changed = new Map<string, CustomFieldValue[]>();
  const fieldsOfBoard = new Map<string, Awaited<ReturnType<typeof boardFields>>>();
  for (const [taskId, boardId] of boardOf) {
    let fields = fieldsOfBoard.get(boardId);
    if (!fields) {
      fields = await boardFields(tx, boardId);
      fieldsOfBoard.set(boardId, fields);
    }
    for (const field of fields.values()) {
      if (!field.ai || field.options === null) continue;
      const option = aiFieldOption(field.options, analysis);
      if (option === undefined) continue;
      const current = await findTaskValue(tx, taskId, field.id);
      const value = option === null ? null : JSON.stringify([option.id]);
      if ((current ?? null) === value) continue;
      await setTaskValue(tx, taskId, field.id, value);
      const before = { field_id: field.id, value: current !== undefined ? JSON.parse(current) : null };
      changed.set(taskId, [...(changed.get(taskId) ?? []), before]);
    }
  }
  if (changed.size > 0) await recordFieldValueChanges(tx, changed, now);
}
