// Who the console acts as (`--console-user`, docs/console.md): resolved once at start, so a mistyped
// address stops the server with a message instead of failing on the first page.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ResolvedServerOptions } from '../options.ts';
import { findOldestUser, findUserByEmail, findUserByEmailAnyCase, findUserById } from '../storage/users.ts';

export interface ConsoleUser {
  userId: string;
  email: string;
  displayName: string | null;
}

/**
 * `--console-user EMAIL` when given; else the first user of the seed or demo loaded now; else, on a
 * database seeded earlier, the demo's first user with `--demo`, or the oldest user (ties by id).
 */
export async function resolveConsoleUser(
  db: Kysely<Database>,
  options: ResolvedServerOptions,
  seededUserId: string | null,
): Promise<ConsoleUser> {
  let row: { id: string; email: string; display_name: string | null } | undefined;
  if (options.consoleUser !== undefined) {
    const email = options.consoleUser.toLowerCase();
    row = await findUserByEmailAnyCase(db, email);
    if (!row) throw new Error(`--console-user ${options.consoleUser}: no user has that email`);
  } else if (seededUserId !== null) {
    row = await findUserById(db, seededUserId);
  } else {
    if (options.demo) {
      const { DEMO_CREDENTIALS } = await import('../seed/demo.ts');
      row = await findUserByEmail(db, DEMO_CREDENTIALS.email);
    }
    row ??= await findOldestUser(db);
  }
  if (!row) throw new Error('the console needs a user to act as: start with --seed or --demo');
  return { userId: row.id, email: row.email, displayName: row.display_name };
}
