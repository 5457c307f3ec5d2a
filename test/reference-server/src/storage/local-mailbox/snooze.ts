// Snooze: a thread leaves the Inbox until a time, and comes back when it passes (or mail arrives).

import type { LocalMailbox } from './context.ts';
import { modifyThreadLabels } from './labels.ts';

export async function snooze(ctx: LocalMailbox, threadId: string, until: Date): Promise<boolean> {
  if (!(await modifyThreadLabels(ctx, threadId, { add: [], remove: ['INBOX'] }))) return false;
  await ctx.db
    .insertInto('snoozes')
    .values({ mailbox_id: ctx.mailbox.id, thread_id: threadId, until_ms: until.getTime() })
    .onConflict((conflict) =>
      conflict.columns(['mailbox_id', 'thread_id']).doUpdateSet({ until_ms: until.getTime() }),
    )
    .execute();
  return true;
}

export async function endSnooze(ctx: LocalMailbox, threadId: string): Promise<void> {
  await ctx.db
    .deleteFrom('snoozes')
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('thread_id', '=', threadId)
    .execute();
}

export async function wakeSnoozed(ctx: LocalMailbox, now: Date): Promise<void> {
  const due = await ctx.db
    .selectFrom('snoozes')
    .select('thread_id')
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('until_ms', '<=', now.getTime())
    .execute();
  for (const { thread_id } of due) {
    await modifyThreadLabels(ctx, thread_id, { add: ['INBOX'], remove: [] });
    await endSnooze(ctx, thread_id);
  }
}
