// SQLite: one process owns the database file; every transaction is a savepoint of the group commit's
// open batch (group-commit.ts), and statements are prepared once per SQL text.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { countStatements, type DatabaseHandle } from './executor.ts';
import { GroupCommitSqliteDialect } from './group-commit.ts';
import type { Database } from './schema.ts';

export function openSqlite(path: string, image?: Buffer): DatabaseHandle {
  const inMemory = path === ':memory:';
  const filename = inMemory ? path : resolve(path);
  if (!inMemory) mkdirSync(dirname(filename), { recursive: true });
  // An image opens as a private in-memory database holding a copy of it.
  const sqlite = image === undefined ? new SqliteDatabase(filename) : new SqliteDatabase(image);
  if (!inMemory) {
    // The server owns its database file: the first read takes a lock it keeps until it closes, so other
    // processes can open the file only after it stops. Every statement then skips taking and releasing
    // file locks, and, set before WAL is, the WAL index lives in heap memory rather than a shared file.
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.pragma('journal_mode = WAL');
  }
  // Commits reach the operating system (a killed or crashed server loses nothing) without waiting
  // for the disk: the WAL is not synced at checkpoints, so an operating-system crash or a power cut
  // may cost the last writes. That is the right trade for a reference server, whose data is a test
  // fixture; syncing cost 15–20 % of write throughput.
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('foreign_keys = ON');
  // Statement journals (kept while an insert checks its constraints and indexes) in memory, not in
  // temporary files: a third of the time of an insert.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('busy_timeout = 5000');
  const counter = { count: 0 };
  const db = new Kysely<Database>({
    dialect: new GroupCommitSqliteDialect(withStatementCache(sqlite, counter)),
  });
  countStatements(db, counter);
  return { db, dialect: 'sqlite', close: () => db.destroy(), image: () => sqlite.serialize() };
}

/**
 * Kysely prepares every statement anew; preparing costs as much as running a typical query here, so
 * statements are kept by SQL text (a few hundred distinct texts at most). None is ever left busy: the
 * driver reads every result whole (it offers no streaming).
 */
function withStatementCache(sqlite: SqliteDatabase.Database, counter: { count: number }, capacity = 500) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    // Called once per statement run (see group-commit.ts), so it also counts them.
    prepare(text: string): SqliteDatabase.Statement {
      counter.count++;
      const cached = statements.get(text);
      if (cached !== undefined) return cached;
      const statement = sqlite.prepare(text);
      if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      statements.set(text, statement);
      return statement;
    },
    close(): void {
      statements.clear();
      sqlite.close();
    },
  };
}
