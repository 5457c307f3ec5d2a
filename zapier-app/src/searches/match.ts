/**
 * Exact before partial, for every search by name (Find Task, Find Contact, Find Company, Find Board
 * Member): a search finds only exact matches (case and surrounding spaces ignored) unless the user ticks
 * "Allow Partial Match", and then partial matches only when no exact one exists. A Find-or-Create step
 * must not act on "Plan Q2 roadmap review" when asked for "Plan Q2". Each result says which it was
 * (`match_type`: `exact` or `partial`), so a later step or filter can tell.
 */
import type { Page } from '@threadwork/shared';
import type { InputField, Inputs } from '../creates/fields.ts';
import type { OutputField, Resource } from '../creates/resources.ts';

export const MATCH_TYPES = ['exact', 'partial'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];
export type Matched<T> = T & { match_type: MatchType };

export const ALLOW_PARTIAL = 'allow_partial';

/** The "Allow Partial Match" input; `example` is a partial match the help text shows. */
export function allowPartialField(what: string, example: { wanted: string; found: string }): InputField {
  return {
    key: ALLOW_PARTIAL,
    label: 'Allow Partial Match',
    type: 'boolean',
    required: false,
    default: 'false',
    helpText:
      `No (the default): only an exact ${what} (any case, surrounding spaces ignored) is found, so a ` +
      `Find-or-Create step for \`${example.wanted}\` creates it even when \`${example.found}\` exists. Yes: ` +
      `when no exact ${what} exists, one that contains the text is found instead, e.g. \`${example.found}\`.`,
  };
}

export const matchTypeOutput: OutputField = { key: 'match_type', label: 'Match Type (Exact or Partial)' };

/** A search's resource: the object's own, with `match_type` in its sample and outputs. */
export function matchedResource<T>(resource: Resource<T>): Resource<Matched<T>> {
  return {
    ...resource,
    sample: { ...resource.sample, match_type: 'exact' },
    outputFields: [...resource.outputFields, matchTypeOutput],
  };
}

const normal = (text: string) => text.trim().toLowerCase();

export interface MatchQuery<T> {
  /** What the user asked for. */
  wanted: string;
  /** The texts of a candidate that may match it (a title; a name and email addresses). */
  texts: (candidate: T) => Array<string | null | undefined>;
  allowPartial: boolean;
}

export function matchQuery<T>(input: Inputs, key: string, texts: MatchQuery<T>['texts']): MatchQuery<T> {
  return { wanted: input.required(key), texts, allowPartial: input.boolean(ALLOW_PARTIAL) ?? false };
}

/** The matches among `candidates`: every exact one; else, when allowed, every partial one. */
export function bestMatches<T>(candidates: readonly T[], query: MatchQuery<T>): Array<Matched<T>> {
  const wanted = normal(query.wanted);
  const textsOf = (candidate: T) =>
    query.texts(candidate).flatMap((text) => (typeof text === 'string' ? [normal(text)] : []));
  const exact = candidates.filter((candidate) => textsOf(candidate).includes(wanted));
  if (exact.length > 0) return exact.map((candidate) => ({ ...candidate, match_type: 'exact' as const }));
  if (!query.allowPartial) return [];
  return candidates
    .filter((candidate) => textsOf(candidate).some((text) => text.includes(wanted)))
    .map((candidate) => ({ ...candidate, match_type: 'partial' as const }));
}

/**
 * Reads pages (at most `maxPages`) until one holds an exact match, then answers `bestMatches` of all read:
 * a big list is not read to its end when the exact match comes early.
 */
export async function scanPages<T>(
  first: Page<T>,
  query: MatchQuery<T>,
  maxPages = 10,
): Promise<Array<Matched<T>>> {
  const read: T[] = [];
  let page: Page<T> | null = first;
  for (let pages = 1; page !== null; pages++) {
    read.push(...page.data);
    if (bestMatches(page.data, { ...query, allowPartial: false }).length > 0 || pages >= maxPages) break;
    page = await page.nextPage();
  }
  return bestMatches(read, query);
}
