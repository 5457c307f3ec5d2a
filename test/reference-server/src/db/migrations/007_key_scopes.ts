import { DEFAULT_SCOPES } from '@threadwork/shared/schemas';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../schema.ts';

type AnyDatabase = Kysely<Record<string, never>>;

// Legacy keys carry their own scopes now (docs/scopes-and-keys.md). Before, a legacy key stored `[]`
// and its session tokens got every non-opt-in scope: each such key keeps exactly those.
export function keyScopesMigration(): Migration {
  return {
    async up(db: AnyDatabase) {
      await (db as unknown as Kysely<Database>)
        .updateTable('api_keys')
        .set({ scopes: JSON.stringify(DEFAULT_SCOPES) })
        .where('type', '=', 'legacy')
        .where('scopes', '=', '[]')
        .execute();
    },
  };
}
