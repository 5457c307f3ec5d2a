import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDatabase = Kysely<Record<string, never>>;

// A task's events (the task page, the console's task page) are read by task, in order: without an
// index each read scanned the whole events table, which only grows.
export function eventsTaskMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema.createIndex('events_task').on('events').columns(['task_id', 'seq']).execute();
    },
  };
}
