/**
 * The hidden triggers that fill dropdowns. They page with Zapier's cursor (`canPaginate`): the first call
 * reads the first page, "load more" the next one, from the cursor the previous call stored.
 */
import type { Page, ThreadworkClient } from '@threadwork/shared';
import type { Bundle, Trigger, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { withZapierErrors } from '../lib/errors.ts';

export const DROPDOWN_PAGE_SIZE = 100;

/** A text input of the dropdown (the action's own inputs reach it too); undefined when empty. */
export function inputText(bundle: Bundle, key: string): string | undefined {
  const value = bundle.inputData?.[key];
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

/** The Team input of a team-scoped dropdown: `what` it lists, e.g. `boards`. */
export function teamInput(what: string) {
  return {
    key: 'team_id',
    label: 'Team',
    dynamic: 'teams.id.name',
    helpText: `The team whose ${what} to list, e.g. \`team_acme\`; all teams when left empty.`,
  };
}

/**
 * One page of a team's items (boards, contacts, companies) for the chosen team; with none chosen, the first
 * page of every team's (a user belongs to a few teams). A team without a paid subscription is skipped
 * then: its items answer `subscription_required`, which would empty the whole list.
 */
export async function teamScoped<T>(
  z: ZObject,
  bundle: Bundle,
  cursor: string | undefined,
  list: (
    client: ThreadworkClient,
    query: { team_id: string; limit: number; cursor?: string },
  ) => PromiseLike<Page<T>>,
): Promise<Page<T> | T[]> {
  const client = await v2Client(z, bundle);
  const teamId = inputText(bundle, 'team_id');
  if (teamId !== undefined) {
    return list(client, {
      team_id: teamId,
      limit: DROPDOWN_PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
    });
  }
  const items: T[] = [];
  for await (const team of client.teams.list({ limit: DROPDOWN_PAGE_SIZE })) {
    if (team.subscription?.paid === false) continue;
    items.push(...(await list(client, { team_id: team.id, limit: DROPDOWN_PAGE_SIZE })).data);
  }
  return items;
}

export interface DropdownOptions<T> {
  key: string;
  noun: string;
  label: string;
  description: string;
  inputFields?: Trigger['operation']['inputFields'];
  /** Loads one page; `cursor` is undefined for the first. */
  load: (z: ZObject, bundle: Bundle, cursor: string | undefined) => PromiseLike<Page<T> | T[]>;
  toItem: (value: T) => { id: string } & Record<string, unknown>;
  sample: { id: string } & Record<string, unknown>;
  outputFields: Array<{ key: string; label: string }>;
}

export function dropdownTrigger<T>(options: DropdownOptions<T>): Trigger {
  const perform = withZapierErrors(async (z: ZObject, bundle: Bundle) => {
    const cursor = bundle.meta?.page ? (await z.cursor.get()) || undefined : undefined;
    const result = await options.load(z, bundle, cursor);
    if (Array.isArray(result)) return result.map(options.toItem);
    // The cursor is stored only when there is a page to load next ("load more" after the last page does not come).
    if (result.hasMore && result.nextCursor !== null) await z.cursor.set(result.nextCursor);
    return result.data.map(options.toItem);
  });
  return {
    key: options.key,
    noun: options.noun,
    display: { label: options.label, description: options.description, hidden: true },
    operation: {
      type: 'polling',
      canPaginate: true,
      ...(options.inputFields === undefined ? {} : { inputFields: options.inputFields }),
      perform,
      sample: options.sample,
      outputFields: options.outputFields,
    },
  } as Trigger;
}
