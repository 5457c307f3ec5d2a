import { companies, contacts } from '../../operations/v2/crm.ts';
import { customFields } from '../../operations/v2/custom-fields.ts';
import { drafts, emailLabels, emails, emailThreads, mailbox } from '../../operations/v2/email.ts';
import { apiKeys } from '../../operations/v2/keys.ts';
import { tasks } from '../../operations/v2/tasks.ts';
import { boards, lists, me, teams } from '../../operations/v2/teams.ts';
import { webhooks } from '../../operations/v2/webhooks.ts';
import { type Resource, resource } from './resource.ts';
import { type ThreadworkClientOptions, V2Transport } from './transport.ts';

/** The client's resources, each a group of declared v2 operations: `client.tasks.create` is `tasks.create`. */
export const RESOURCES = {
  me,
  teams,
  boards,
  lists,
  customFields,
  tasks,
  contacts,
  companies,
  mailbox,
  emailLabels,
  emailThreads,
  drafts,
  emails,
  webhooks,
  apiKeys,
};

const RESOURCE_CLASSES = Object.entries(RESOURCES).map(([name, group]) => [name, resource(group)] as const);

/**
 * The typed v2 client. Every method resolves to the envelope's `data` (see `getMeta` for its meta); list
 * methods return a `PagePromise`. Writes always carry an Idempotency-Key, so they are retried safely.
 *
 * ```ts
 * const client = new ThreadworkClient({ baseUrl: 'https://host/v2', apiKey });
 * for await (const task of client.tasks.list({ list_id })) console.log(task.title);
 * ```
 */
export class ThreadworkClient {
  declare readonly me: Resource<typeof me>;
  declare readonly teams: Resource<typeof teams>;
  declare readonly boards: Resource<typeof boards>;
  declare readonly lists: Resource<typeof lists>;
  declare readonly customFields: Resource<typeof customFields>;
  declare readonly tasks: Resource<typeof tasks>;
  declare readonly contacts: Resource<typeof contacts>;
  declare readonly companies: Resource<typeof companies>;
  declare readonly mailbox: Resource<typeof mailbox>;
  declare readonly emailLabels: Resource<typeof emailLabels>;
  declare readonly emailThreads: Resource<typeof emailThreads>;
  declare readonly drafts: Resource<typeof drafts>;
  declare readonly emails: Resource<typeof emails>;
  declare readonly webhooks: Resource<typeof webhooks>;
  declare readonly apiKeys: Resource<typeof apiKeys>;

  constructor(options: ThreadworkClientOptions) {
    const transport = new V2Transport(options);
    for (const [name, Class] of RESOURCE_CLASSES) {
      (this as Record<string, unknown>)[name] = new Class(transport);
    }
  }
}
