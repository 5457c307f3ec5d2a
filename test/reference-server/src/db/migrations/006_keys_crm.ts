import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

type AnyDatabase = Kysely<Record<string, never>>;

// A contact created with neither company_id nor company_name joins its team's default company, made
// on first need and marked here. Search groups contacts by company; keys are listed per user.
export function keysCrmMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await db.schema
        .alterTable('companies')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // At most one default company per team, whatever races to make it.
      await db.schema
        .createIndex('companies_team_default')
        .on('companies')
        .column('team_id')
        .unique()
        .where(sql.ref('is_default'), '=', 1)
        .execute();
      await db.schema.createIndex('contacts_company').on('contacts').column('company_id').execute();
      await db.schema
        .createIndex('api_keys_user_created')
        .on('api_keys')
        .columns(['user_id', 'created_at', 'id'])
        .execute();
    },
  };
}
