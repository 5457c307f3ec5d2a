// The seed file format (docs/reference-server.md). Objects are strict (an unknown key is an error naming its path);
// a field left out takes its empty value (null, [], false, shade `none`).
import {
  BOARD_TYPES,
  boundedString,
  ContentType,
  CustomFieldType,
  CustomFieldValueInput,
  DateTime,
  MAILBOX_REASONS,
  MAX_NAME_LENGTH,
  MAX_NOTES_LENGTH,
  MAX_TITLE_LENGTH,
  OPTION_FIELD_TYPES,
  Scope,
  Shade,
  SubscriptionStatus,
} from '@threadwork/shared/schemas';
import { z } from 'zod';
import { formatPath } from '../domain/errors.ts';
import { SYSTEM_LABEL_IDS } from '../domain/system-labels.ts';

const Id = z.string().min(1);
const nullableString = z.string().nullable().default(null);
// Names and titles are held to the API's limits (docs/errors.md#lengths): a seed makes the same objects the
// API does, and every client relies on those limits (a card, a key's row), whichever way a value came in.
const Name = boundedString(MAX_NAME_LENGTH).min(1);
const nullableName = boundedString(MAX_NAME_LENGTH).nullable().default(null);
const nullableDateTime = DateTime.nullable().default(null);
const InfoEntry = z.strictObject({ type: z.string(), value: z.string() });
const Address = z.strictObject({ email: z.string().min(1), name: nullableString });

const SeedUser = z.strictObject({
  id: Id,
  email: z.string().min(1),
  display_name: nullableName,
});

const SeedTeam = z.strictObject({
  id: Id,
  name: Name,
  members: z.array(Id).default([]),
  subscription: z.strictObject({ plan: nullableString, status: SubscriptionStatus }).nullable().default(null),
});

const SeedCustomField = z.strictObject({
  id: Id,
  name: Name,
  type: CustomFieldType,
  ai: z.boolean().default(false),
  display_on_card: z.boolean().default(false),
  options: z
    .array(z.strictObject({ id: Id, label: Name }))
    .nullable()
    .default(null),
});

const SeedBoard = z.strictObject({
  id: Id,
  team_id: Id.nullable().default(null),
  owner_id: Id.nullable().default(null),
  name: Name,
  /** Left out: `shared` for a team board, `private` for a personal one. */
  board_type: z.enum(BOARD_TYPES).optional(),
  template: nullableString,
  lists: z.array(z.strictObject({ id: Id, name: Name })).default([]),
  custom_fields: z.array(SeedCustomField).default([]),
});

const SeedTask = z.strictObject({
  id: Id,
  list_id: Id,
  title: boundedString(MAX_TITLE_LENGTH).min(1),
  content_type: ContentType.default('task'),
  notes: boundedString(MAX_NOTES_LENGTH).nullable().default(null),
  shade: Shade.default('none'),
  completed: z.boolean().default(false),
  due_at: nullableDateTime,
  /** Left out: the time the seed is loaded. */
  created_at: DateTime.nullable().default(null),
  assignee_id: Id.nullable().default(null),
  thread_ids: z.array(Id).default([]),
  custom_fields: z.array(CustomFieldValueInput).default([]),
  contact_id: Id.nullable().default(null),
  deal: z
    .strictObject({
      value: z.number().nullable().default(null),
      source: nullableString,
      close_date: nullableDateTime,
      loss_reason: nullableString,
    })
    .nullable()
    .default(null),
});

const SeedContact = z.strictObject({
  id: Id,
  team_id: Id,
  name: nullableName,
  first_name: nullableName,
  last_name: nullableName,
  title: nullableString,
  type: nullableString,
  stage: nullableString,
  source: nullableString,
  contact_info: z.array(InfoEntry).default([]),
  tags: z.array(z.string()).default([]),
  company_id: Id.nullable().default(null),
});

const SeedCompany = z.strictObject({
  id: Id,
  team_id: Id,
  name: nullableName,
  type: nullableString,
  stage: nullableString,
  company_info: z.array(InfoEntry).default([]),
  tags: z.array(z.string()).default([]),
});

const SeedMessage = z.strictObject({
  id: Id,
  from: Address,
  to: z.array(Address).default([]),
  cc: z.array(Address).default([]),
  subject: nullableString,
  date: nullableDateTime,
  body_text: nullableString,
  body_html: nullableString,
  labels: z.array(z.string().min(1)).default([]),
  /** The address a reply answers instead of `from`. */
  reply_to: Address.nullable().default(null),
});

const SeedMailbox = z.strictObject({
  user_id: Id,
  provider_id: z.string().min(1).default('gmail'),
  email_address: z.string().min(1),
  state: z.enum(['connected', ...MAILBOX_REASONS]).default('connected'),
  labels: z.array(z.strictObject({ id: Id, name: nullableName })).default([]),
  threads: z.array(z.strictObject({ id: Id, messages: z.array(SeedMessage).default([]) })).default([]),
});

/** Either kind of key may list its scopes; one without `scopes` holds every scope, opt-in ones included. */
const SeedKeyScopes = z.array(Scope).optional();

const SeedApiKey = z.discriminatedUnion('type', [
  z.strictObject({
    id: Id,
    user_id: Id,
    type: z.literal('legacy'),
    name: Name,
    api_key: z.string().min(1),
    api_secret: z.string().min(1),
    scopes: SeedKeyScopes,
  }),
  z.strictObject({
    id: Id,
    user_id: Id,
    type: z.literal('v2'),
    name: Name,
    secret: z.string().min(1),
    scopes: SeedKeyScopes,
  }),
]);

const SeedShape = z.strictObject({
  users: z.array(SeedUser).default([]),
  teams: z.array(SeedTeam).default([]),
  boards: z.array(SeedBoard).default([]),
  tasks: z.array(SeedTask).default([]),
  contacts: z.array(SeedContact).default([]),
  companies: z.array(SeedCompany).default([]),
  mailboxes: z.array(SeedMailbox).default([]),
  api_keys: z.array(SeedApiKey).default([]),
});

type SeedShape = z.output<typeof SeedShape>;
type Path = (string | number)[];

/** Every id a seed refers to must be defined in it, and ids are unique per kind. */
function checkReferences(seed: SeedShape, ctx: z.RefinementCtx): void {
  const issue = (path: Path, message: string) => ctx.addIssue({ code: 'custom', path, message });
  const idsOf = <T extends { id: string }>(items: readonly T[], path: Path) => {
    const ids = new Set<string>();
    items.forEach((item, index) => {
      if (ids.has(item.id)) issue([...path, index, 'id'], `duplicate id ${item.id}`);
      ids.add(item.id);
    });
    return ids;
  };
  const users = idsOf(seed.users, ['users']);
  const teams = idsOf(seed.teams, ['teams']);
  idsOf(seed.boards, ['boards']);
  const companies = idsOf(seed.companies, ['companies']);
  const contacts = idsOf(seed.contacts, ['contacts']);
  idsOf(seed.tasks, ['tasks']);
  idsOf(seed.api_keys, ['api_keys']);
  const lists = new Set<string>();
  const fieldIds = new Set<string>();
  const refer = (known: Set<string>, id: string | null, path: Path, what: string) => {
    if (id !== null && !known.has(id)) issue(path, `unknown ${what} ${id}`);
  };

  seed.teams.forEach((team, t) => {
    team.members.forEach((member, m) => {
      refer(users, member, ['teams', t, 'members', m], 'user');
    });
  });
  seed.boards.forEach((board, b) => {
    refer(teams, board.team_id, ['boards', b, 'team_id'], 'team');
    refer(users, board.owner_id, ['boards', b, 'owner_id'], 'user');
    if ((board.team_id === null) === (board.owner_id === null)) {
      issue(['boards', b], 'a board has either a team_id (team board) or an owner_id (personal board)');
    }
    board.lists.forEach((list, l) => {
      if (lists.has(list.id)) issue(['boards', b, 'lists', l, 'id'], `duplicate id ${list.id}`);
      lists.add(list.id);
    });
    board.custom_fields.forEach((field, f) => {
      if (fieldIds.has(field.id)) issue(['boards', b, 'custom_fields', f, 'id'], `duplicate id ${field.id}`);
      fieldIds.add(field.id);
      if (field.options !== null && !OPTION_FIELD_TYPES.includes(field.type)) {
        issue(['boards', b, 'custom_fields', f, 'options'], `options are only valid for option fields`);
      }
    });
  });
  seed.tasks.forEach((task, t) => {
    refer(lists, task.list_id, ['tasks', t, 'list_id'], 'list');
    refer(users, task.assignee_id, ['tasks', t, 'assignee_id'], 'user');
    refer(contacts, task.contact_id, ['tasks', t, 'contact_id'], 'contact');
    task.custom_fields.forEach((value, v) => {
      refer(fieldIds, value.field_id, ['tasks', t, 'custom_fields', v, 'field_id'], 'custom field');
    });
  });
  seed.contacts.forEach((contact, c) => {
    refer(teams, contact.team_id, ['contacts', c, 'team_id'], 'team');
    refer(companies, contact.company_id, ['contacts', c, 'company_id'], 'company');
  });
  seed.companies.forEach((company, c) => {
    refer(teams, company.team_id, ['companies', c, 'team_id'], 'team');
  });
  const mailboxUsers = new Set<string>();
  seed.mailboxes.forEach((mailbox, m) => {
    refer(users, mailbox.user_id, ['mailboxes', m, 'user_id'], 'user');
    if (mailboxUsers.has(mailbox.user_id))
      issue(['mailboxes', m, 'user_id'], 'a user has at most one mailbox');
    mailboxUsers.add(mailbox.user_id);
    const labels = new Set(mailbox.labels.map((label) => label.id));
    const messages = new Set<string>();
    mailbox.threads.forEach((thread, t) => {
      thread.messages.forEach((message, i) => {
        const path = ['mailboxes', m, 'threads', t, 'messages', i];
        if (messages.has(message.id)) issue([...path, 'id'], `duplicate id ${message.id}`);
        messages.add(message.id);
        message.labels.forEach((label, l) => {
          if (!labels.has(label) && !SYSTEM_LABEL_IDS.has(label))
            issue([...path, 'labels', l], `unknown label ${label}`);
        });
      });
    });
  });
  seed.api_keys.forEach((key, k) => {
    refer(users, key.user_id, ['api_keys', k, 'user_id'], 'user');
  });
}

export const Seed = SeedShape.superRefine(checkReferences);
/** A seed as written (fields may be left out). */
export type SeedInput = z.input<typeof Seed>;
/** A seed with every left-out field at its empty value. */
export type SeedData = z.output<typeof Seed>;

export class SeedError extends Error {
  override name = 'SeedError';
}

/** Every problem of a seed, one per line, each naming its path. */
export function formatSeedIssues(error: z.ZodError): string {
  return error.issues
    .flatMap((issue) => {
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => `${formatPath([...issue.path, key])}: unknown key`);
      }
      return [`${formatPath(issue.path) || '(seed)'}: ${issue.message}`];
    })
    .join('\n');
}

export function parseSeed(input: unknown): SeedData {
  const result = Seed.safeParse(input);
  if (!result.success) throw new SeedError(`invalid seed:\n${formatSeedIssues(result.error)}`);
  return result.data;
}
