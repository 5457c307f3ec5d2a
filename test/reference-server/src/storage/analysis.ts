// The thread analyses repository: the cached classification of a mailbox's thread (its newest
// message's). What an analysis says, and when it is stale, is domain/analysis.ts's.
import type { Executor } from '../db/executor.ts';
import type { ThreadAnalysesTable } from '../db/schema.ts';

/** The thread's cached analysis; undefined if it was never classified. */
export function findAnalysis(db: Executor, mailboxId: string, threadId: string) {
  return db
    .selectFrom('thread_analyses')
    .select(['thread_id', 'message_id', 'urgency', 'sentiment', 'status', 'analyzed_at', 'model'])
    .where('mailbox_id', '=', mailboxId)
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
}

/** Stores the thread's analysis in place of any before it. */
export async function storeAnalysis(
  tx: Executor,
  mailboxId: string,
  threadId: string,
  stored: Omit<ThreadAnalysesTable, 'mailbox_id' | 'thread_id'>,
): Promise<void> {
  await tx
    .insertInto('thread_analyses')
    .values({ mailbox_id: mailboxId, thread_id: threadId, ...stored })
    .onConflict((conflict) => conflict.columns(['mailbox_id', 'thread_id']).doUpdateSet(stored))
    .execute();
}
