// Opening the database: embedded SQLite (one process owns the file; sqlite.ts) or PostgreSQL
// (`DATABASE_URL`, shared by any number of server processes; postgres.ts, docs/postgresql.md), migrated
// to the latest schema. Everything above sees only `Kysely<Database>`: the same code runs on both.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Migrator } from 'kysely/migration';
import type { DatabaseHandle } from './executor.ts';
import { migrationProvider } from './migrations/index.ts';
import { openPostgres } from './postgres.ts';
import { openSqlite } from './sqlite.ts';
import { whenCommitted } from './transaction.ts';

export { DatabaseConfigError, type DatabaseHandle } from './executor.ts';
export type { DialectName } from './migrations/columns.ts';

export interface OpenDatabaseOptions {
  /** SQLite file path or `:memory:`. */
  path: string;
  /** A `postgres://` URL selects PostgreSQL instead of `path`. */
  databaseUrl?: string | undefined;
  /** With `:memory:`: the file of an empty, migrated database to start from (see `ServerOptions`). */
  memoryTemplate?: string | undefined;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const template = options.databaseUrl || options.path !== ':memory:' ? undefined : options.memoryTemplate;
  const image = template === undefined ? undefined : readTemplate(template);
  if (image !== undefined) {
    // From the template, migrating only confirms every migration has run (it is a third of the start-up
    // time otherwise). A template that will not open is only a spoilt cache: migrate and write it again.
    let fromImage: DatabaseHandle | undefined;
    try {
      fromImage = openSqlite(options.path, image);
      await migrateToLatest(fromImage);
      return fromImage;
    } catch {
      await fromImage?.close().catch(() => {});
    }
  }
  const handle = options.databaseUrl ? await openPostgres(options.databaseUrl) : openSqlite(options.path);
  try {
    await migrateToLatest(handle);
    if (template !== undefined) {
      await whenCommitted(handle.db);
      writeTemplate(template, handle.image?.());
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** The template's bytes, or undefined when there is none yet (or it cannot be read: it is only a cache). */
function readTemplate(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name, then renamed: a server starting meanwhile never reads half of it. */
function writeTemplate(path: string, bytes: Buffer | undefined): void {
  if (bytes === undefined) return;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  } catch {
    // A cache that cannot be written costs the next start its migrations, nothing more.
  }
}

async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const migrator = new Migrator({
    db: handle.db,
    provider: migrationProvider(handle.dialect),
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
}
