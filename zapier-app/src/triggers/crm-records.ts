/**
 * Dropdowns of CRM records: the contacts or companies of the chosen team, or of every team the user can
 * read when none is chosen (a user belongs to a few teams; a team without a paid plan is skipped, as its
 * CRM answers `subscription_required`).
 */
import type { Page, ThreadworkClient } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { DROPDOWN_PAGE_SIZE, inputText } from './dropdown.ts';

export const crmTeamInput = {
  key: 'team_id',
  label: 'Team',
  dynamic: 'teams.id.name',
  helpText: 'The team whose CRM to list, e.g. `team_acme`; every team when left empty.',
};

/** One page of the chosen team's records, or the first page of each team's. */
export async function loadCrm<T>(
  z: ZObject,
  bundle: Bundle,
  cursor: string | undefined,
  list: (
    client: ThreadworkClient,
    query: { team_id: string; limit: number; cursor?: string },
  ) => PromiseLike<Page<T>>,
): Promise<Page<T> | T[]> {
  const client = v2Client(z, bundle);
  const teamId = inputText(bundle, 'team_id');
  if (teamId !== undefined) {
    return list(client, {
      team_id: teamId,
      limit: DROPDOWN_PAGE_SIZE,
      ...(cursor === undefined ? {} : { cursor }),
    });
  }
  const records: T[] = [];
  for await (const team of client.teams.list({ limit: DROPDOWN_PAGE_SIZE })) {
    if (team.subscription?.paid === false) continue;
    records.push(...(await list(client, { team_id: team.id, limit: DROPDOWN_PAGE_SIZE })).data);
  }
  return records;
}
