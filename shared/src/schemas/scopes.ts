import { z } from 'zod';
import { OPT_IN_SCOPES, SCOPES } from './values.ts';

export { OPT_IN_SCOPES, SCOPES };

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** The scopes a key gets when none are named. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !OPT_IN_SCOPES.includes(scope));
