// Labels: the mailbox's own labels beside the system ones, and a thread's labels changed.
import type { EmailLabel } from '@threadwork/shared/schemas';
import { notFound } from '../../domain/errors.ts';
import type { LabelChange } from '../../domain/mailbox/provider.ts';
import { SYSTEM_LABEL_IDS, SYSTEM_LABELS } from '../../domain/system-labels.ts';
import { changed, type LocalMailbox, threadExists } from './context.ts';

export async function userLabels(ctx: LocalMailbox): Promise<{ id: string; name: string | null }[]> {
  return ctx.db
    .selectFrom('labels')
    .select(['id', 'name'])
    .where('mailbox_id', '=', ctx.mailbox.id)
    .where('type', '=', 'user')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function listLabels(ctx: LocalMailbox): Promise<EmailLabel[]> {
  const user = await userLabels(ctx);
  return [
    ...SYSTEM_LABELS.map((label) => ({ id: label.id, name: label.name, type: 'system' })),
    ...user.map((label) => ({ id: label.id, name: label.name, type: 'user' })),
  ];
}

/** Whether a label id exists in this mailbox (system labels always do). */
export async function unknownLabels(ctx: LocalMailbox, ids: readonly string[]): Promise<string[]> {
  const custom = ids.filter((id) => !SYSTEM_LABEL_IDS.has(id));
  if (custom.length === 0) return [];
  const known = new Set((await userLabels(ctx)).map((label) => label.id));
  return custom.filter((id) => !known.has(id));
}

export async function modifyThreadLabels(
  ctx: LocalMailbox,
  threadId: string,
  change: LabelChange,
): Promise<boolean> {
  if (!(await threadExists(ctx, threadId))) return false;
  for (const side of ['add', 'remove'] as const) {
    const unknown = await unknownLabels(ctx, change[side]);
    // An unknown id in a body answers as one in a path does (docs/ids-and-visibility.md).
    if (unknown[0] !== undefined) throw notFound('label', unknown[0]);
  }
  const mailboxId = ctx.mailbox.id;
  changed(ctx, threadId);
  const ids = (
    await ctx.db
      .selectFrom('messages')
      .select('id')
      .where('mailbox_id', '=', mailboxId)
      .where('thread_id', '=', threadId)
      .execute()
  ).map((row) => row.id);
  if (ids.length === 0) return true;
  if (change.remove.length > 0) {
    await ctx.db
      .deleteFrom('message_labels')
      .where('mailbox_id', '=', mailboxId)
      .where('message_id', 'in', ids)
      .where('label_id', 'in', [...change.remove])
      .execute();
  }
  const rows = ids.flatMap((message_id) =>
    [...new Set(change.add)].map((label_id) => ({ mailbox_id: mailboxId, message_id, label_id })),
  );
  if (rows.length > 0) {
    await ctx.db
      .insertInto('message_labels')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['mailbox_id', 'message_id', 'label_id']).doNothing())
      .execute();
  }
  return true;
}
