import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../schema.ts';

type AnyDatabase = Kysely<Record<string, never>>;

/**
 * Every scope that was not opt-in when this migration was written, frozen with it: scopes added since
 * were never granted to keys by it.
 */
const DEFAULT_SCOPES_THEN = [
  'boards.read',
  'boards.write',
  'lists.read',
  'lists.write',
  'tasks.read',
  'tasks.write',
  'customfields.read',
  'customfields.write',
  'email.metadata.read',
  'email.body.read',
  'email.modify',
  'drafts.write',
  'email.reply',
  'crm.read',
  'crm.write',
  'ai.read',
  'ai.write',
  'webhooks.manage',
  'keys.manage',
];

// Legacy keys carry their own scopes now (docs/scopes-and-keys.md). Before, a legacy key stored `[]`
// and its session tokens got every non-opt-in scope: each such key keeps exactly those.
export function keyScopesMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await (db as unknown as Kysely<Database>)
        .updateTable('api_keys')
        .set({ scopes: JSON.stringify(DEFAULT_SCOPES_THEN) })
        .where('type', '=', 'legacy')
        .where('scopes', '=', '[]')
        .execute();
    },
  };
}
