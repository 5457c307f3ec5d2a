import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../schema.ts';

type AnyDatabase = Kysely<Record<string, never>>;

/**
 * A thread's sort key as this migration computed it: the time (epoch ms) of its latest dated message,
 * -1 when none has a date. A copy frozen with the migration: the live rule (domain/mailbox/threads.ts)
 * may change without changing what this migration did.
 */
function latestTime(dates: readonly (string | null)[]): number {
  let latest = -1;
  for (const date of dates) {
    const time = date === null ? Number.NaN : Date.parse(date);
    if (!Number.isNaN(time) && time > latest) latest = time;
  }
  return latest;
}

/** Threads that existed before this migration get their sort key from their messages' dates. */
async function backfillLatest(db: Kysely<Database>): Promise<void> {
  const rows = await db.selectFrom('messages').select(['mailbox_id', 'thread_id', 'date']).execute();
  const dates = new Map<string, { mailbox: string; thread: string; dates: (string | null)[] }>();
  for (const row of rows) {
    const key = JSON.stringify([row.mailbox_id, row.thread_id]);
    const entry = dates.get(key) ?? { mailbox: row.mailbox_id, thread: row.thread_id, dates: [] };
    entry.dates.push(row.date);
    dates.set(key, entry);
  }
  for (const entry of dates.values()) {
    await db
      .updateTable('threads')
      .set({ latest_ms: latestTime(entry.dates) })
      .where('mailbox_id', '=', entry.mailbox)
      .where('id', '=', entry.thread)
      .execute();
  }
}

// Mailbox writes (drafts, sending, snooze) and the AI analysis cache; see docs/mailbox.md.
export function mailboxWritesMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      // JSON text: an EmailAddress a reply answers instead of the sender; null when the message has none.
      await db.schema.alterTable('messages').addColumn('reply_to', 'text').execute();
      // JSON text: array of addresses; only drafts and sent mail have blind copies.
      await db.schema.alterTable('messages').addColumn('bcc', 'text').execute();

      // Search reads threads newest first by their latest dated message (epoch ms), a batch at a time.
      await db.schema
        .alterTable('threads')
        .addColumn('latest_ms', 'bigint', (c) => c.notNull().defaultTo(-1))
        .execute();
      await db.schema
        .createIndex('threads_latest')
        .on('threads')
        .columns(['mailbox_id', 'latest_ms', 'id'])
        .execute();
      await backfillLatest(db as unknown as Kysely<Database>);

      // A draft is a message with the DRAFT label; its draft id is the handle the drafts API takes.
      await db.schema
        .createTable('drafts')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('drafts_pk', ['mailbox_id', 'id'])
        .addForeignKeyConstraint(
          'drafts_message_fk',
          ['mailbox_id', 'message_id'],
          'messages',
          ['mailbox_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();

      // A snoozed thread has left the Inbox until `until_ms` (epoch milliseconds on the server's clock).
      await db.schema
        .createTable('snoozes')
        .addColumn('mailbox_id', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('until_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('snoozes_pk', ['mailbox_id', 'thread_id'])
        .addForeignKeyConstraint(
          'snoozes_thread_fk',
          ['mailbox_id', 'thread_id'],
          'threads',
          ['mailbox_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema.createIndex('snoozes_due').on('snoozes').columns(['mailbox_id', 'until_ms']).execute();

      // The classifier's latest answer per thread, valid while `message_id` is the thread's newest message.
      await db.schema
        .createTable('thread_analyses')
        .addColumn('mailbox_id', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('urgency', 'text', (c) => c.notNull())
        .addColumn('sentiment', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('analyzed_at', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('thread_analyses_pk', ['mailbox_id', 'thread_id'])
        .addForeignKeyConstraint(
          'thread_analyses_thread_fk',
          ['mailbox_id', 'thread_id'],
          'threads',
          ['mailbox_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
    },
  };
}
