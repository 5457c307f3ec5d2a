import type { Migration, MigrationProvider } from 'kysely/migration';
import { coreMigration } from './001_core.ts';
import { mailboxMigration } from './002_mailbox.ts';
import { webhooksMigration } from './003_webhooks.ts';
import { tasksMigration } from './004_tasks.ts';
import { mailboxWritesMigration } from './005_mailbox_writes.ts';
import { keysCrmMigration } from './006_keys_crm.ts';
import { keyScopesMigration } from './007_key_scopes.ts';
import { eventsTaskMigration } from './008_events_task.ts';
import { dataVersionMigration } from './009_data_version.ts';
import { keyOwnershipMigration } from './010_key_ownership.ts';
import { deliveryAnswersMigration } from './011_delivery_answers.ts';
import type { DialectName } from './columns.ts';

/** Every migration, keyed by name in the order they run. Add a new area as `00N_area`. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '001_core': coreMigration(dialect),
    '002_mailbox': mailboxMigration(),
    '003_webhooks': webhooksMigration(dialect),
    '004_tasks': tasksMigration(),
    '005_mailbox_writes': mailboxWritesMigration(),
    '006_keys_crm': keysCrmMigration(),
    '007_key_scopes': keyScopesMigration(),
    '008_events_task': eventsTaskMigration(),
    '009_data_version': dataVersionMigration(dialect),
    '010_key_ownership': keyOwnershipMigration(),
    '011_delivery_answers': deliveryAnswersMigration(),
  };
  return { getMigrations: async () => migrations };
}
