// Who the console acts as (`--console-user`, docs/console.md): resolved once at start, so a mistyped
// address stops the server with a message instead of failing on the first page.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ResolvedServerOptions } from '../options.ts';

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
  const users = db.selectFrom('users').select(['id', 'email', 'display_name']);
  let row: { id: string; email: string; display_name: string | null } | undefined;
  if (options.consoleUser !== undefined) {
    const email = options.consoleUser.toLowerCase();
    row = await users.where((eb) => eb(eb.fn('lower', ['email']), '=', email)).executeTakeFirst();
    if (!row) throw new Error(`--console-user ${options.consoleUser}: no user has that email`);
  } else if (seededUserId !== null) {
    row = await users.where('id', '=', seededUserId).executeTakeFirst();
  } else {
    if (options.demo) {
      const { DEMO_CREDENTIALS } = await import('../seed/demo.ts');
      row = await users.where('email', '=', DEMO_CREDENTIALS.email).executeTakeFirst();
    }
    row ??= await users.orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  }
  if (!row) throw new Error('the console needs a user to act as: start with --seed or --demo');
  return { userId: row.id, email: row.email, displayName: row.display_name };
}
