import { z } from 'zod';
import { DateTime, Deleted, NameString, openEnum } from '../common.ts';
import { Scope } from '../scopes.ts';
import { KEY_TYPES } from './me.ts';

const Count = z.number().int().nonnegative();

/**
 * What a key holds: it owns the v2 webhook subscriptions and v1 hooks made with it, and revoking it stops
 * them. `webhooks`: its v2 subscriptions that are active; `hooks`: its v1 hooks.
 */
export const KeySubscriptions = z.looseObject({ webhooks: Count, hooks: Count });
export type KeySubscriptions = z.infer<typeof KeySubscriptions>;

/**
 * An API key as listed: never its secret. Both kinds list the scopes they hold (a legacy key's are those
 * its session tokens carry, on v1 and v2). Legacy keys carry the public `api_key` the token endpoint
 * takes. `subscriptions` counts what revoking the key would stop.
 */
export const ApiKey = z.looseObject({
  id: z.string(),
  type: openEnum(KEY_TYPES),
  name: z.string(),
  scopes: z.array(z.string()),
  api_key: z.string().nullable().optional(),
  created_at: DateTime,
  subscriptions: KeySubscriptions,
});
export type ApiKey = z.infer<typeof ApiKey>;

/** What creating a key answers: the secret, shown this once. */
export const CreatedApiKey = ApiKey.extend({
  /** v2: the bearer secret. */
  secret: z.string().optional(),
  /** legacy: the secret paired with `api_key` for the token endpoint. */
  api_secret: z.string().optional(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

/**
 * What revoking a key answers: its v2 subscriptions that were active are now disabled (`disabled_reason:
 * "key_revoked"`), and its v1 hooks are deleted, in the same change as the key.
 */
export const RevokedApiKey = Deleted.extend({ webhooks_disabled: Count, hooks_deleted: Count });
export type RevokedApiKey = z.infer<typeof RevokedApiKey>;

export const CreateApiKeyRequest = z.strictObject({
  name: NameString,
  type: z.enum(KEY_TYPES).default('v2'),
  /**
   * Either kind of key. Omitted: every scope but the opt-in ones (`email.send`, `drafts.delete`), which
   * are granted only by name. The caller may grant only scopes it holds itself (else 403).
   */
  scopes: z.array(Scope).min(1).optional(),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;
