import { z } from 'zod';

/** Every v2 scope (docs/scopes-and-keys.md). */
export const SCOPES = [
  'boards.read',
  'boards.write',
  'lists.read',
  'lists.write',
  'tasks.read',
  'tasks.write',
  'customfields.read',
  'customfields.write',
  'email.metadata.read',
  'email.body.read',
  'email.modify',
  'drafts.write',
  'drafts.delete',
  'email.reply',
  'email.send',
  'crm.read',
  'crm.write',
  'ai.read',
  'ai.write',
  'webhooks.manage',
  'keys.manage',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** Scopes a key gets only when asked for by name: sending mail and deleting drafts. */
export const OPT_IN_SCOPES: readonly Scope[] = ['email.send', 'drafts.delete'];

/** The scopes a key gets when none are named. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !OPT_IN_SCOPES.includes(scope));
