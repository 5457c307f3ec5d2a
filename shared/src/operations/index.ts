// Every operation of the service, declared once (docs/openapi.md): the server registers its routes from
// these, the OpenAPI document describes them, and the typed clients call them. The v2 groups are the v2
// client's resources, their keys its method names (`tasks.create` is `client.tasks.create`).
import type { Operation } from './operation.ts';
import { service } from './service.ts';
import { sessionToken, v1, v1Hooks } from './v1.ts';
import { companies, contacts } from './v2/crm.ts';
import { customFields } from './v2/custom-fields.ts';
import { drafts, emailLabels, emails, emailThreads, mailbox } from './v2/email.ts';
import { apiKeys } from './v2/keys.ts';
import { tasks } from './v2/tasks.ts';
import { boards, lists, me, teams } from './v2/teams.ts';
import { webhooks } from './v2/webhooks.ts';

export * from './operation.ts';
export { service } from './service.ts';
export { sessionToken, v1, v1Hooks } from './v1.ts';
export { companies, contacts } from './v2/crm.ts';
export { customFields } from './v2/custom-fields.ts';
export { drafts, emailLabels, emails, emailThreads, mailbox } from './v2/email.ts';
export { apiKeys } from './v2/keys.ts';
export { tasks } from './v2/tasks.ts';
export { boards, lists, me, teams } from './v2/teams.ts';
export { webhooks } from './v2/webhooks.ts';

/** Every operation, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [
  service,
  me,
  teams,
  boards,
  lists,
  customFields,
  tasks,
  mailbox,
  emailThreads,
  emailLabels,
  emails,
  drafts,
  contacts,
  companies,
  webhooks,
  apiKeys,
  { sessionToken },
  v1,
  v1Hooks.items,
  v1Hooks.lists,
].flatMap((group): Operation[] => Object.values(group));
