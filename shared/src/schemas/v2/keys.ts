import { z } from 'zod';
import { DateTime, NonEmptyString, openEnum } from '../common.ts';
import { Scope } from '../scopes.ts';
import { KEY_TYPES } from './me.ts';

/** An API key as listed: never its secret. Legacy keys carry the public `api_key` the token endpoint takes. */
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
  name: NonEmptyString,
  type: z.enum(KEY_TYPES).default('v2'),
  /** v2 keys only; omitted means the default scopes (everything but the opt-in ones). */
  scopes: z.array(Scope).min(1).optional(),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;
