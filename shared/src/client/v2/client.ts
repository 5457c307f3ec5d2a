import { ApiKeysResource } from './resources/api-keys.ts';
import { BoardsResource } from './resources/boards.ts';
import { CompaniesResource } from './resources/companies.ts';
import { ContactsResource } from './resources/contacts.ts';
import { CustomFieldsResource } from './resources/custom-fields.ts';
import { DraftsResource } from './resources/drafts.ts';
import { EmailLabelsResource } from './resources/email-labels.ts';
import { EmailThreadsResource } from './resources/email-threads.ts';
import { EmailsResource } from './resources/emails.ts';
import { ListsResource } from './resources/lists.ts';
import { MailboxResource } from './resources/mailbox.ts';
import { MeResource } from './resources/me.ts';
import { TasksResource } from './resources/tasks.ts';
import { TeamsResource } from './resources/teams.ts';
import { WebhooksResource } from './resources/webhooks.ts';
import { type ThreadworkClientOptions, V2Transport } from './transport.ts';

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
  readonly me: MeResource;
  readonly teams: TeamsResource;
  readonly boards: BoardsResource;
  readonly lists: ListsResource;
  readonly customFields: CustomFieldsResource;
  readonly tasks: TasksResource;
  readonly contacts: ContactsResource;
  readonly companies: CompaniesResource;
  readonly mailbox: MailboxResource;
  readonly emailLabels: EmailLabelsResource;
  readonly emailThreads: EmailThreadsResource;
  readonly drafts: DraftsResource;
  readonly emails: EmailsResource;
  readonly webhooks: WebhooksResource;
  readonly apiKeys: ApiKeysResource;

  constructor(options: ThreadworkClientOptions) {
    const transport = new V2Transport(options);
    this.me = new MeResource(transport);
    this.teams = new TeamsResource(transport);
    this.boards = new BoardsResource(transport);
    this.lists = new ListsResource(transport);
    this.customFields = new CustomFieldsResource(transport);
    this.tasks = new TasksResource(transport);
    this.contacts = new ContactsResource(transport);
    this.companies = new CompaniesResource(transport);
    this.mailbox = new MailboxResource(transport);
    this.emailLabels = new EmailLabelsResource(transport);
    this.emailThreads = new EmailThreadsResource(transport);
    this.drafts = new DraftsResource(transport);
    this.emails = new EmailsResource(transport);
    this.webhooks = new WebhooksResource(transport);
    this.apiKeys = new ApiKeysResource(transport);
  }
}
