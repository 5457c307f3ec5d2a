// The mailboxes repository: which mailbox a user has (or which has an address), and the tasks linked to
// a thread with what decides who may see them. The mail itself is the provider's
// (storage/local-mailbox/ for the local one).
import type { Executor } from '../db/executor.ts';
import type { MailboxRecord } from '../domain/mailbox/provider.ts';
import { lockUser } from './locks.ts';

const MAILBOX_COLUMNS = ['id', 'user_id', 'provider_id', 'email_address', 'state'] as const;

/**
 * Holds the user's mailbox until the transaction ends (the user's row, storage/locks.ts): the user's
 * mailbox changes then run one after another.
 */
export function holdMailbox(tx: Executor, userId: string): Promise<void> {
  return lockUser(tx, userId);
}

/** The user's mailbox in whatever state; undefined when the user never linked one. */
export function findUserMailbox(db: Executor, userId: string): Promise<MailboxRecord | undefined> {
  return db.selectFrom('mailboxes').select(MAILBOX_COLUMNS).where('user_id', '=', userId).executeTakeFirst();
}

/** The mailbox of this address (case aside; the oldest if several); undefined if none. */
export function findMailboxOfAddress(db: Executor, address: string): Promise<MailboxRecord | undefined> {
  return db
    .selectFrom('mailboxes')
    .select(MAILBOX_COLUMNS)
    .where((eb) => eb(eb.fn('lower', ['email_address']), '=', address.toLowerCase()))
    .orderBy('created_at')
    .executeTakeFirst();
}

/**
 * The unarchived tasks linked to the thread, oldest first, each with its board's team, owner and plan
 * and the user's membership of the team: what decides whether the user may reach it.
 */
export function linkedTaskRows(db: Executor, userId: string, threadId: string) {
  return db
    .selectFrom('task_threads')
    .innerJoin('tasks', 'tasks.id', 'task_threads.task_id')
    .innerJoin('lists', 'lists.id', 'tasks.list_id')
    .innerJoin('boards', 'boards.id', 'lists.board_id')
    .leftJoin('team_members', (join) =>
      join.onRef('team_members.team_id', '=', 'boards.team_id').on('team_members.user_id', '=', userId),
    )
    .leftJoin('subscriptions', 'subscriptions.team_id', 'boards.team_id')
    .select([
      'tasks.id',
      'tasks.title',
      'boards.team_id',
      'boards.owner_id',
      'team_members.user_id as member_id',
      'subscriptions.plan',
      'subscriptions.status',
    ])
    .where('task_threads.thread_id', '=', threadId)
    .where('tasks.archived_at', 'is', null)
    .orderBy('tasks.created_at')
    .orderBy('tasks.id')
    .execute();
}
