// Drafts: a draft is a message labelled DRAFT plus its draft row; sending it relabels the message.
import type { Draft } from '@threadwork/shared/schemas';
import type { OutgoingMessage, SentMessageIds } from '../../domain/mailbox/provider.ts';
import type { Page, PageRequest } from '../../domain/pagination.ts';
import { paginate } from '../pagination.ts';
import { changed, type LocalMailbox, newHexId, parseAddresses } from './context.ts';
import { bumpLatest, insertMessage, outgoing, recomputeLatest } from './messages.ts';

export async function createDraft(
  ctx: LocalMailbox,
  threadId: string | null,
  message: OutgoingMessage,
  at: Date,
): Promise<Draft | null> {
  const written = await insertMessage(ctx, threadId, await outgoing(ctx, message, ['DRAFT'], at), at);
  if (!written) return null;
  // Gmail's draft ids are `r` and digits; ours are `r` and 16 hex digits, never a message id.
  const draftId = `r${newHexId()}`;
  await ctx.db
    .insertInto('drafts')
    .values({
      mailbox_id: ctx.mailbox.id,
      id: draftId,
      message_id: written.messageId,
      updated_at: at.toISOString(),
    })
    .execute();
  return (await findDraft(ctx, draftId)) as Draft;
}

function selectDrafts(ctx: LocalMailbox) {
  return ctx.db
    .selectFrom('drafts')
    .innerJoin('messages', (join) =>
      join
        .onRef('messages.mailbox_id', '=', 'drafts.mailbox_id')
        .onRef('messages.id', '=', 'drafts.message_id'),
    )
    .select([
      'drafts.id as draft_id',
      'drafts.updated_at',
      'messages.id as message_id',
      'messages.thread_id',
      'messages.subject',
      'messages.snippet',
      'messages.to',
      'messages.cc',
    ])
    .where('drafts.mailbox_id', '=', ctx.mailbox.id);
}

function draftView(row: {
  draft_id: string;
  updated_at: string;
  message_id: string;
  thread_id: string;
  subject: string | null;
  snippet: string | null;
  to: string;
  cc: string;
}): Draft {
  return {
    draft_id: row.draft_id,
    message_id: row.message_id,
    thread_id: row.thread_id,
    subject: row.subject,
    snippet: row.snippet,
    to: parseAddresses(row.to).map((address) => address.email),
    cc: parseAddresses(row.cc).map((address) => address.email),
    date_modified: row.updated_at,
  };
}

async function findDraft(ctx: LocalMailbox, draftId: string): Promise<Draft | null> {
  const row = await selectDrafts(ctx).where('drafts.id', '=', draftId).executeTakeFirst();
  return row ? draftView(row) : null;
}

export async function listDrafts(ctx: LocalMailbox, page: PageRequest): Promise<Page<Draft>> {
  const result = await paginate(
    page,
    ['drafts.updated_at', 'drafts.id'],
    (after, take) => {
      let query = selectDrafts(ctx);
      if (after) query = query.where(after);
      return query.orderBy('drafts.updated_at').orderBy('drafts.id').limit(take).execute();
    },
    (row) => [row.updated_at, row.draft_id],
  );
  return { items: result.items.map((row) => draftView(row)), pagination: result.pagination };
}

export async function sendDraft(
  ctx: LocalMailbox,
  draftId: string,
  at: Date,
): Promise<SentMessageIds | null> {
  const draft = await findDraft(ctx, draftId);
  if (!draft?.message_id || !draft.thread_id) return null;
  const mailboxId = ctx.mailbox.id;
  // The draft's message becomes the sent one: same id, sent now, SENT instead of DRAFT.
  await ctx.db.deleteFrom('drafts').where('mailbox_id', '=', mailboxId).where('id', '=', draftId).execute();
  await ctx.db
    .updateTable('messages')
    .set({ date: at.toISOString() })
    .where('mailbox_id', '=', mailboxId)
    .where('id', '=', draft.message_id)
    .execute();
  await bumpLatest(ctx, draft.thread_id, at.getTime());
  changed(ctx, draft.thread_id);
  await ctx.db
    .deleteFrom('message_labels')
    .where('mailbox_id', '=', mailboxId)
    .where('message_id', '=', draft.message_id)
    .where('label_id', '=', 'DRAFT')
    .execute();
  await ctx.db
    .insertInto('message_labels')
    .values({ mailbox_id: mailboxId, message_id: draft.message_id, label_id: 'SENT' })
    .onConflict((conflict) => conflict.columns(['mailbox_id', 'message_id', 'label_id']).doNothing())
    .execute();
  return { message_id: draft.message_id, thread_id: draft.thread_id };
}

export async function deleteDraft(ctx: LocalMailbox, draftId: string): Promise<boolean> {
  const draft = await findDraft(ctx, draftId);
  if (!draft?.message_id || !draft.thread_id) return false;
  const mailboxId = ctx.mailbox.id;
  // Its message goes with it (labels and the draft row cascade); so does a thread left empty.
  await ctx.db.deleteFrom('drafts').where('mailbox_id', '=', mailboxId).where('id', '=', draftId).execute();
  await ctx.db
    .deleteFrom('message_labels')
    .where('mailbox_id', '=', mailboxId)
    .where('message_id', '=', draft.message_id)
    .execute();
  await ctx.db
    .deleteFrom('messages')
    .where('mailbox_id', '=', mailboxId)
    .where('id', '=', draft.message_id)
    .execute();
  changed(ctx, draft.thread_id);
  const left = await ctx.db
    .selectFrom('messages')
    .select('id')
    .where('mailbox_id', '=', mailboxId)
    .where('thread_id', '=', draft.thread_id)
    .executeTakeFirst();
  if (!left) {
    await ctx.db
      .deleteFrom('threads')
      .where('mailbox_id', '=', mailboxId)
      .where('id', '=', draft.thread_id)
      .execute();
  } else {
    await recomputeLatest(ctx, draft.thread_id);
  }
  return true;
}
