import { z } from 'zod';
import { DateTime, NameString, openEnum } from '../common.ts';
import { Scope } from '../scopes.ts';
import { KEY_TYPES } from './me.ts';

/**
 * An API key as listed: never its secret. Both kinds list the scopes they hold (a legacy key's are those
 * its session tokens carry on v2). Legacy keys carry the public `api_key` the token endpoint takes.
 */
export const ApiKey = z.looseObject({
  id: z.string(),
  type: openEnum(KEY_TYPES),
  name: z.string(),
  scopes: z.array(z.string()),
  api_key: z.string().nullable().optional(),
  created_at: DateTime,
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
