import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_NOTES_LENGTH, MAX_TITLE_LENGTH } from './limits.ts';

/**
 * Building blocks shared by every resource. Responses are parsed tolerantly (the API evolves additively:
 * unknown fields are kept and unknown enum values accepted); requests are parsed strictly.
 */

/** A response object that keeps fields it does not know. */
export const looseObject = z.looseObject;

/**
 * An enum in a response: the known values type-check and autocomplete, a value added later still parses.
 * Requests use the closed `z.enum` of the same values.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  // A plain string check typed as the known union: as tolerant as a union with z.string(), and cheaper.
  // The known values travel as metadata, for the OpenAPI document.
  return z.string().meta({
    description: `One of ${values.join(', ')}; accept others too (the API evolves additively).`,
    examples: [...values],
  }) as unknown as z.ZodType<T[number] | (string & {})>;
}

/** ISO 8601 date-time with `Z` or an offset, as the service sends and accepts. */
export const DateTime = z.iso.datetime({ offset: true });

/** An id with the service's prefix (`tsk_…`). Ids are opaque: only the prefix is checked. */
export function prefixedId(prefix: string) {
  return z.string().startsWith(`${prefix}_`, { message: `must be an id starting with ${prefix}_` });
}

/** Raw mailbox ids (threads, messages) are lowercase hex, as the provider gives them. */
export const HexId = z.string().regex(/^[0-9a-f]{6,32}$/i, { message: 'must be a hex mailbox id' });

const NOT_EMPTY = { message: 'must not be empty' };

/** A non-empty string after trimming. */
export const NonEmptyString = z.string().trim().min(1, NOT_EMPTY);

/** The message of a length limit, the limit written as people read it: `at most 1,024 characters`. */
export function atMost(limit: number): { message: string } {
  return { message: `at most ${String(limit).replace(/\B(?=(\d{3})+$)/g, ',')} characters` };
}

/**
 * A string of at most `limit` characters (UTF-16 code units, as JavaScript counts them) as sent, longer
 * ones refused with a message naming the limit (docs/errors.md#lengths).
 */
export function boundedString(limit: number) {
  return z.string().max(limit, atMost(limit));
}

/** Non-empty after trimming, and at most `limit` characters as sent (what the OpenAPI maxLength says). */
function boundedNonEmptyString(limit: number) {
  return boundedString(limit).trim().min(1, NOT_EMPTY);
}

/** A task title: non-empty, at most MAX_TITLE_LENGTH characters. */
export const TitleString = boundedNonEmptyString(MAX_TITLE_LENGTH);

/** A name (board, list, custom field, option, label, key, contact, company): non-empty, at most MAX_NAME_LENGTH. */
export const NameString = boundedNonEmptyString(MAX_NAME_LENGTH);

/** Task notes: at most MAX_NOTES_LENGTH characters. */
export const NotesString = boundedString(MAX_NOTES_LENGTH);

export const PaginationMeta = z.looseObject({
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
  limit: z.number().int(),
});
export type PaginationMeta = z.infer<typeof PaginationMeta>;

export const Meta = z.looseObject({
  request_id: z.string(),
  pagination: PaginationMeta.optional(),
});
export type Meta = z.infer<typeof Meta>;

/** The success envelope: `{ data, meta }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ data, meta: Meta });
}

/** Query parameters every list endpoint takes. */
export const PAGE_LIMIT_MAX = 200;
export const PAGE_LIMIT_DEFAULT = 50;
export const PaginationQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional(),
});
export type PaginationQuery = z.infer<typeof PaginationQuery>;

/** Query booleans arrive as strings. */
export const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

/** What a DELETE answers. */
export const Deleted = z.looseObject({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof Deleted>;
