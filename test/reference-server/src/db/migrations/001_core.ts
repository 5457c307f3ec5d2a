import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { type DialectName, serialPrimaryKey } from './columns.ts';

// `any`-free: migrations see an untyped database, as the schema they build may be older than schema.ts.
type AnyDatabase = Kysely<Record<string, never>>;

export function coreMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('teams')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('team_members')
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
        .execute();
      await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('team_id', 'text', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
        .addColumn('plan', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('boards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('board_type', 'text', (c) => c.notNull())
        .addColumn('template', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('boards_team').on('boards').columns(['team_id', 'name', 'id']).execute();
      await db.schema.createIndex('boards_owner').on('boards').column('owner_id').execute();

      await db.schema
        .createTable('lists')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('lists_board')
        .on('lists')
        .columns(['board_id', 'position', 'id'])
        .execute();

      await db.schema
        .createTable('custom_fields')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('ai', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('display_on_card', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('custom_fields_board')
        .on('custom_fields')
        .columns(['board_id', 'position'])
        .execute();

      await db.schema
        .createTable('custom_field_options')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('field_id', 'text', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('custom_field_options_field')
        .on('custom_field_options')
        .columns(['field_id', 'position'])
        .execute();

      await db.schema
        .createTable('companies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('type', 'text')
        .addColumn('stage', 'text')
        .addColumn('company_info', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('companies_team').on('companies').columns(['team_id', 'name']).execute();

      await db.schema
        .createTable('contacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('title', 'text')
        .addColumn('type', 'text')
        .addColumn('stage', 'text')
        .addColumn('source', 'text')
        .addColumn('contact_info', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('company_id', 'text', (c) => c.references('companies.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contacts_team').on('contacts').columns(['team_id', 'name']).execute();

      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('list_id', 'text', (c) => c.notNull().references('lists.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('shade', 'text', (c) => c.notNull())
        .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('due_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('contact_id', 'text', (c) => c.references('contacts.id').onDelete('set null'))
        .addColumn('deal_value', 'double precision')
        .addColumn('deal_source', 'text')
        .addColumn('deal_close_date', 'text')
        .addColumn('deal_loss_reason', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_list').on('tasks').columns(['list_id', 'position', 'id']).execute();

      await db.schema
        .createTable('task_threads')
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('thread_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('task_threads_pk', ['task_id', 'thread_id'])
        .execute();
      await db.schema.createIndex('task_threads_thread').on('task_threads').column('thread_id').execute();

      await db.schema
        .createTable('task_custom_values')
        .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('field_id', 'text', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('task_custom_values_pk', ['task_id', 'field_id'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('api_key', 'text')
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema
        .createIndex('api_keys_user')
        .on('api_keys')
        .columns(['user_id', 'type', 'name'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('credential', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['credential', 'key'])
        .execute();
      await db.schema
        .createIndex('idempotency_keys_expiry')
        .on('idempotency_keys')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('server_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('events')
        .addColumn('seq', 'integer', serialPrimaryKey(dialect))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('team_id', 'text')
        .addColumn('board_id', 'text')
        .addColumn('list_id', 'text')
        .addColumn('task_id', 'text')
        .addColumn('user_id', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
