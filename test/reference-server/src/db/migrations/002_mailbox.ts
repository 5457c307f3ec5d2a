import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDatabase = Kysely<Record<string, never>>;

// Thread, message and label ids are the provider's raw ids, unique only within one mailbox.
export function mailboxMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema
        .createTable('mailboxes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
        .addColumn('provider_id', 'text', (c) => c.notNull())
        .addColumn('email_address', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mailboxes_email').on('mailboxes').column('email_address').execute();

      await db.schema
        .createTable('labels')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('labels_pk', ['mailbox_id', 'id'])
        .execute();

      await db.schema
        .createTable('threads')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('threads_pk', ['mailbox_id', 'id'])
        .execute();

      await db.schema
        .createTable('messages')
        .addColumn('mailbox_id', 'text', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('from_email', 'text', (c) => c.notNull())
        .addColumn('from_name', 'text')
        .addColumn('to', 'text', (c) => c.notNull())
        .addColumn('cc', 'text', (c) => c.notNull())
        .addColumn('date', 'text')
        .addColumn('snippet', 'text')
        .addColumn('body_text', 'text')
        .addColumn('body_html', 'text')
        .addColumn('attachment_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('messages_pk', ['mailbox_id', 'id'])
        .addForeignKeyConstraint(
          'messages_thread_fk',
          ['mailbox_id', 'thread_id'],
          'threads',
          ['mailbox_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('messages_thread')
        .on('messages')
        .columns(['mailbox_id', 'thread_id', 'date'])
        .execute();

      await db.schema
        .createTable('message_labels')
        .addColumn('mailbox_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('label_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_labels_pk', ['mailbox_id', 'message_id', 'label_id'])
        .addForeignKeyConstraint(
          'message_labels_message_fk',
          ['mailbox_id', 'message_id'],
          'messages',
          ['mailbox_id', 'id'],
          (c) => c.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('message_labels_label')
        .on('message_labels')
        .columns(['mailbox_id', 'label_id'])
        .execute();
    },
  };
}
