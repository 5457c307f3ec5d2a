import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDatabase = Kysely<Record<string, never>>;

// A task keeps a snapshot of the thread it was first linked to (`first_thread`): threads live in one
// user's mailbox, while the task is read by the whole team.
export function tasksMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema.alterTable('tasks').addColumn('first_thread_title', 'text').execute();
      await db.schema.alterTable('tasks').addColumn('first_thread_received_at', 'text').execute();
      await db.schema.alterTable('tasks').addColumn('first_thread_from', 'text').execute();
      // Removing an option rewrites the values of that field; a field's deletion cascades through it.
      await db.schema
        .createIndex('task_custom_values_field')
        .on('task_custom_values')
        .column('field_id')
        .execute();
    },
  };
}
