import { companies, contacts } from '../../operations/v2/crm.ts';
import { customFields } from '../../operations/v2/custom-fields.ts';
import { drafts, emailLabels, emails, emailThreads, mailbox } from '../../operations/v2/email.ts';
import { apiKeys } from '../../operations/v2/keys.ts';
import { tasks } from '../../operations/v2/tasks.ts';
import { boards, lists, me, teams } from '../../operations/v2/teams.ts';
import { webhooks } from '../../operations/v2/webhooks.ts';
import { type Resource, resource } from './resource.ts';
import { type ThreadworkClientOptions, V2Transport } from './transport.ts';

// One resource per group of declared operations (shared/src/operations/v2/): its methods are the group's keys.
const Me = resource(me);
const Teams = resource(teams);
const Boards = resource(boards);
const Lists = resource(lists);
const CustomFields = resource(customFields);
const Tasks = resource(tasks);
const Contacts = resource(contacts);
const Companies = resource(companies);
const Mailbox = resource(mailbox);
const EmailLabels = resource(emailLabels);
const EmailThreads = resource(emailThreads);
const Drafts = resource(drafts);
const Emails = resource(emails);
const Webhooks = resource(webhooks);
const ApiKeys = resource(apiKeys);

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
  readonly me: Resource<typeof me>;
  readonly teams: Resource<typeof teams>;
  readonly boards: Resource<typeof boards>;
  readonly lists: Resource<typeof lists>;
  readonly customFields: Resource<typeof customFields>;
  readonly tasks: Resource<typeof tasks>;
  readonly contacts: Resource<typeof contacts>;
  readonly companies: Resource<typeof companies>;
  readonly mailbox: Resource<typeof mailbox>;
  readonly emailLabels: Resource<typeof emailLabels>;
  readonly emailThreads: Resource<typeof emailThreads>;
  readonly drafts: Resource<typeof drafts>;
  readonly emails: Resource<typeof emails>;
  readonly webhooks: Resource<typeof webhooks>;
  readonly apiKeys: Resource<typeof apiKeys>;

  constructor(options: ThreadworkClientOptions) {
    const transport = new V2Transport(options);
    this.me = new Me(transport);
    this.teams = new Teams(transport);
    this.boards = new Boards(transport);
    this.lists = new Lists(transport);
    this.customFields = new CustomFields(transport);
    this.tasks = new Tasks(transport);
    this.contacts = new Contacts(transport);
    this.companies = new Companies(transport);
    this.mailbox = new Mailbox(transport);
    this.emailLabels = new EmailLabels(transport);
    this.emailThreads = new EmailThreads(transport);
    this.drafts = new Drafts(transport);
    this.emails = new Emails(transport);
    this.webhooks = new Webhooks(transport);
    this.apiKeys = new ApiKeys(transport);
  }
}
