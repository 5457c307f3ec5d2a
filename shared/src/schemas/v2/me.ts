import { z } from 'zod';
import { openEnum } from '../common.ts';

export const KEY_TYPES = ['v2', 'legacy'] as const;

export const Me = z.looseObject({
  user_id: z.string(),
  email: z.string().nullable(),
  display_name: z.string().nullable(),
  /** The key used; absent for legacy token auth. */
  key: z
    .looseObject({
      id: z.string(),
      type: openEnum(KEY_TYPES),
      scopes: z.array(z.string()),
    })
    .nullable()
    .optional(),
});
export type Me = z.infer<typeof Me>;
