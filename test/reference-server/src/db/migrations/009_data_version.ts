import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { DialectName } from './columns.ts';

type AnyDatabase = Kysely<Record<string, never>>;

/** The sequence every write transaction moves once it has committed (PostgreSQL; see db/changes.ts). */
export const DATA_VERSION = 'threadwork_data_version';

/**
 * Sent by a write transaction right after its commit, in the same text (so it runs once the commit
 * is done, and the request is answered only after it): other processes' next `caughtUp` see it.
 */
export const BUMP_DATA_VERSION = `select nextval('${DATA_VERSION}')`;

// PostgreSQL: what the server processes sharing a database read to learn whether data changed since
// their caches read it (db/changes.ts). SQLite needs none: one process owns the file.
export function dataVersionMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDatabase) {
      if (dialect === 'postgres') await sql.raw(`create sequence ${DATA_VERSION}`).execute(db);
    },
  };
}
