/**
 * Scopes as a person chooses them (the extension's API tab, the console's keys page): every scope in a
 * group a person recognises, with a plain label. The scope's own name stays beside it (what the API and
 * its errors say). One table, so a message that says "tick Send email" (the Zapier app's) names what every
 * keys page shows. Free of zod: the console's bundle and the extension's pages load it.
 */
import type { Scope } from './schemas/scopes.ts';

export const SCOPE_GROUPS: readonly { name: string; scopes: readonly { scope: Scope; label: string }[] }[] = [
  {
    name: 'Boards, lists and tasks',
    scopes: [
      { scope: 'boards.read', label: 'See boards' },
      { scope: 'boards.write', label: 'Change boards' },
      { scope: 'lists.read', label: 'See lists' },
      { scope: 'lists.write', label: 'Change lists' },
      { scope: 'tasks.read', label: 'See tasks' },
      { scope: 'tasks.write', label: 'Create and change tasks' },
      { scope: 'customfields.read', label: 'See custom fields' },
      { scope: 'customfields.write', label: 'Change custom fields' },
    ],
  },
  {
    name: 'Mail',
    scopes: [
      { scope: 'email.metadata.read', label: 'See threads (subjects, senders)' },
      { scope: 'email.body.read', label: 'Read message bodies' },
      { scope: 'email.modify', label: 'Label and archive threads' },
      { scope: 'email.reply', label: 'Reply in threads' },
      { scope: 'email.send', label: 'Send email' },
      { scope: 'drafts.write', label: 'Write drafts' },
      { scope: 'drafts.delete', label: 'Delete drafts' },
    ],
  },
  {
    name: 'Contacts and AI',
    scopes: [
      { scope: 'crm.read', label: 'See contacts and companies' },
      { scope: 'crm.write', label: 'Change contacts and companies' },
      { scope: 'ai.read', label: 'See AI analyses' },
      { scope: 'ai.write', label: 'Run AI analyses' },
    ],
  },
  {
    name: 'Administration',
    scopes: [
      { scope: 'webhooks.manage', label: 'Manage webhooks' },
      { scope: 'keys.manage', label: 'Manage API keys' },
    ],
  },
];

/**
 * The groups as shown for the scopes the service offers: a scope this table does not know yet (a newer
 * service) still shows, under "Other", by its name.
 */
export function groupScopes(offered: readonly string[]) {
  const known = new Set<string>(SCOPE_GROUPS.flatMap((group) => group.scopes.map(({ scope }) => scope)));
  const groups = SCOPE_GROUPS.map((group) => ({
    name: group.name,
    scopes: group.scopes.filter(({ scope }) => offered.includes(scope)),
  }));
  const other = offered.filter((scope) => !known.has(scope)).map((scope) => ({ scope, label: scope }));
  return [...groups, { name: 'Other', scopes: other }].filter((group) => group.scopes.length > 0);
}
