import { readFile } from 'node:fs/promises';
import { SCOPES } from '@threadwork/shared/schemas';
import type { Kysely } from 'kysely';
import { perStatement } from '../db/executor.ts';
import type { Database } from '../db/schema.ts';
import { taskFields } from '../db/task-fields.ts';
import { newId } from '../domain/ids.ts';
import { latestTime } from '../domain/mailbox/threads.ts';
import { changeCredentials } from '../domain/principal-cache.ts';
import { hashSecret } from '../domain/secrets.ts';
import { SYSTEM_LABELS } from '../domain/system-labels.ts';
import { snapshotFirstThreads } from './first-threads.ts';
import { parseSeed, type SeedData, SeedError, type SeedInput } from './seed-schema.ts';

/** Reads and validates a seed file; every problem is reported with its path. */
export async function readSeedFile(path: string): Promise<SeedData> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`seed file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(json);
}

export async function isDatabaseEmpty(db: Kysely<Database>): Promise<boolean> {
  const [user, team] = await Promise.all([
    db.selectFrom('users').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('teams').select('id').limit(1).executeTakeFirst(),
  ]);
  return !user && !team;
}

const snippetOf = (text: string | null) =>
  text === null ? null : text.replace(/\s+/g, ' ').trim().slice(0, 120);
const json = (value: unknown) => JSON.stringify(value);

/**
 * Loads a seed (an object, or a path to a JSON file) into an empty database in one transaction,
 * keeping its ids. Secrets are stored only as hashes.
 */
export async function loadSeed(
  db: Kysely<Database>,
  source: SeedInput | string,
  now: Date,
): Promise<{ firstUserId: string | null }> {
  const seed = typeof source === 'string' ? await readSeedFile(source) : parseSeed(source);
  if (!(await isDatabaseEmpty(db))) {
    throw new SeedError(
      'the database is not empty: a seed loads only into an empty database (use a new --db file)',
    );
  }
  // Users and keys are written, so nothing authenticated before may be served from memory.
  await changeCredentials(db, () => insertSeed(db, seed, now.toISOString()));
  return { firstUserId: seed.users[0]?.id ?? null };
}

async function insertSeed(db: Kysely<Database>, seed: SeedData, loadedAt: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const insert = async <T extends keyof Database & string>(table: T, rows: Database[T][] | object[]) => {
      for (const run of perStatement(rows)) {
        await trx
          .insertInto(table)
          .values(run.rows as never)
          .execute();
      }
    };

    await insert(
      'users',
      seed.users.map((user) => ({ ...user, created_at: loadedAt })),
    );
    await insert(
      'teams',
      seed.teams.map((team) => ({ id: team.id, name: team.name, created_at: loadedAt })),
    );
    await insert(
      'team_members',
      seed.teams.flatMap((team) => team.members.map((user_id) => ({ team_id: team.id, user_id }))),
    );
    await insert(
      'subscriptions',
      seed.teams.flatMap((team) =>
        team.subscription
          ? [{ team_id: team.id, plan: team.subscription.plan, status: team.subscription.status }]
          : [],
      ),
    );
    await insert(
      'boards',
      seed.boards.map((board) => ({
        id: board.id,
        team_id: board.team_id,
        owner_id: board.owner_id,
        name: board.name,
        board_type: board.board_type ?? (board.team_id === null ? 'private' : 'shared'),
        template: board.template,
        created_at: loadedAt,
      })),
    );
    await insert(
      'lists',
      seed.boards.flatMap((board) =>
        board.lists.map((list, position) => ({
          id: list.id,
          board_id: board.id,
          name: list.name,
          position,
          created_at: loadedAt,
        })),
      ),
    );
    await insert(
      'custom_fields',
      seed.boards.flatMap((board) =>
        board.custom_fields.map((field, position) => ({
          id: field.id,
          board_id: board.id,
          name: field.name,
          type: field.type,
          ai: field.ai ? 1 : 0,
          display_on_card: field.display_on_card ? 1 : 0,
          position,
        })),
      ),
    );
    await insert(
      'custom_field_options',
      seed.boards.flatMap((board) =>
        board.custom_fields.flatMap((field) =>
          (field.options ?? []).map((option, position) => ({
            id: option.id,
            field_id: field.id,
            label: option.label,
            position,
          })),
        ),
      ),
    );
    await insert(
      'companies',
      seed.companies.map((company) => ({
        ...company,
        company_info: json(company.company_info),
        tags: json(company.tags),
        created_at: loadedAt,
      })),
    );
    await insert(
      'contacts',
      seed.contacts.map((contact) => ({
        ...contact,
        contact_info: json(contact.contact_info),
        tags: json(contact.tags),
        created_at: loadedAt,
      })),
    );

    // Seed order within a list is top to bottom.
    const nextPosition = new Map<string, number>();
    await insert(
      'tasks',
      seed.tasks.map((task) => {
        const position = nextPosition.get(task.list_id) ?? 0;
        nextPosition.set(task.list_id, position + 1);
        const createdAt = task.created_at ?? loadedAt;
        return {
          id: task.id,
          list_id: task.list_id,
          position,
          assignee_id: task.assignee_id,
          archived_at: null,
          updated_at: createdAt,
          ...taskFields.columnsOf({
            title: task.title,
            content_type: task.content_type,
            notes: task.notes,
            shade: task.shade,
            completed: task.completed,
            due_at: task.due_at,
            created_at: createdAt,
            contact_id: task.contact_id,
            deal: task.deal,
          }),
        };
      }),
    );
    await insert(
      'task_threads',
      seed.tasks.flatMap((task) =>
        [...new Set(task.thread_ids)].map((thread_id, position) => ({
          task_id: task.id,
          thread_id,
          position,
        })),
      ),
    );
    await insert(
      'task_custom_values',
      seed.tasks.flatMap((task) =>
        task.custom_fields
          .filter(
            (entry) => entry.value !== null && !(Array.isArray(entry.value) && entry.value.length === 0),
          )
          .map((entry) => ({ task_id: task.id, field_id: entry.field_id, value: json(entry.value) })),
      ),
    );

    for (const mailbox of seed.mailboxes) {
      const mailboxId = newId('mbx');
      await insert('mailboxes', [
        {
          id: mailboxId,
          user_id: mailbox.user_id,
          provider_id: mailbox.provider_id,
          email_address: mailbox.email_address,
          state: mailbox.state,
          created_at: loadedAt,
        },
      ]);
      await insert('labels', [
        ...SYSTEM_LABELS.map((label) => ({
          mailbox_id: mailboxId,
          id: label.id,
          name: label.name,
          type: 'system',
        })),
        ...mailbox.labels.map((label) => ({
          mailbox_id: mailboxId,
          id: label.id,
          name: label.name,
          type: 'user',
        })),
      ]);
      await insert(
        'threads',
        mailbox.threads.map((thread) => ({
          mailbox_id: mailboxId,
          id: thread.id,
          created_at: thread.messages[0]?.date ?? loadedAt,
          latest_ms: latestTime(thread.messages.map((message) => message.date)),
        })),
      );
      const messages = mailbox.threads.flatMap((thread) =>
        thread.messages.map((message) => ({ thread, message })),
      );
      await insert(
        'messages',
        messages.map(({ thread, message }) => ({
          mailbox_id: mailboxId,
          id: message.id,
          thread_id: thread.id,
          subject: message.subject,
          from_email: message.from.email,
          from_name: message.from.name,
          to: json(message.to),
          cc: json(message.cc),
          date: message.date,
          snippet: snippetOf(message.body_text),
          body_text: message.body_text,
          body_html: message.body_html,
          reply_to: message.reply_to === null ? null : json(message.reply_to),
        })),
      );
      await insert(
        'message_labels',
        messages.flatMap(({ message }) =>
          [...new Set(message.labels)].map((label_id) => ({
            mailbox_id: mailboxId,
            message_id: message.id,
            label_id,
          })),
        ),
      );
    }
    await snapshotFirstThreads(trx);

    await insert(
      'api_keys',
      seed.api_keys.map((key) => ({
        id: key.id,
        user_id: key.user_id,
        type: key.type,
        name: key.name,
        api_key: key.type === 'legacy' ? key.api_key : null,
        secret_hash: hashSecret(key.type === 'legacy' ? key.api_secret : key.secret),
        // A seeded key stands for the user's own key, made in the service's web app: without `scopes` it
        // holds every scope, opt-in ones included (docs/scopes-and-keys.md).
        scopes: json(key.scopes === undefined ? SCOPES : [...new Set(key.scopes)]),
        created_at: loadedAt,
        last_used_at: null,
      })),
    );
  });
}
