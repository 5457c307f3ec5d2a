import type { Company, Contact } from '@threadwork/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { IDS, startConnected } from './live.ts';

// The CRM actions and searches against a live reference server started by its contract.

const live = await startConnected();

afterAll(async () => {
  await live.server.stop();
});

describe('contacts, live', () => {
  it('create_contact twice creates one contact; find_contact finds it; update_contact changes it', async () => {
    const created = await live.twice('create_contact', {
      team_id: IDS.paidTeam,
      name: 'Live Dora Finch',
      contact_info: { email: 'dora@finch.test' },
      tags: ['live'],
      company_name: 'Finch Ltd',
    });
    expect(created).toMatchObject({
      name: 'Live Dora Finch',
      contact_info: [{ type: 'email', value: 'dora@finch.test' }],
      company: { name: 'Finch Ltd' },
    });
    for (const q of [' live dora finch ', 'DORA@finch.test']) {
      const found = (await live.run('searches', 'find_contact', { team_id: IDS.paidTeam, q })) as Array<
        Contact & { match_type: string }
      >;
      expect(found.map((contact) => [contact.id, contact.match_type])).toEqual([[created['id'], 'exact']]);
    }
    // Part of the name: nothing, unless partial matches are allowed.
    expect(await live.run('searches', 'find_contact', { team_id: IDS.paidTeam, q: 'Live Dora' })).toEqual([]);
    const partial = (await live.run('searches', 'find_contact', {
      team_id: IDS.paidTeam,
      q: 'Live Dora',
      allow_partial: 'yes',
    })) as Array<Contact & { match_type: string }>;
    expect(partial.map((contact) => [contact.id, contact.match_type])).toEqual([[created['id'], 'partial']]);
    const updated = await live.twice('update_contact', { contact_id: created['id'], stage: 'Customer' });
    expect(updated).toMatchObject({ id: created['id'], stage: 'Customer', name: 'Live Dora Finch' });
  });
});

describe('companies, live', () => {
  it('find-or-create company: the search finds none for a new name, the create runs once, then it is found', async () => {
    const search = { team_id: IDS.paidTeam, q: 'Live Stone' };
    await live.twice('create_company', { team_id: IDS.paidTeam, name: 'Live Stone Masonry' });
    // "Live Stone" is only part of a name: the find-or-create creates it.
    expect(await live.run('searches', 'find_company', search)).toEqual([]);
    const created = await live.twice('create_company', { team_id: IDS.paidTeam, name: 'Live Stone' });
    const found = (await live.run('searches', 'find_company', search)) as Company[];
    expect(found.map((company) => company.id)).toEqual([created['id']]);
  });

  it('create_company twice creates one company; find_company finds it; update_company changes it', async () => {
    const created = await live.twice('create_company', {
      team_id: IDS.paidTeam,
      name: 'Live Heron Works',
      company_info: { domain: 'heron.test' },
    });
    for (const q of ['Live Heron Works', 'heron.test']) {
      const found = (await live.run('searches', 'find_company', { team_id: IDS.paidTeam, q })) as Company[];
      expect(found.map((company) => company.id)).toEqual([created['id']]);
    }
    expect(await live.run('searches', 'find_company', { team_id: IDS.paidTeam, q: 'Heron' })).toEqual([]);
    const updated = await live.twice('update_company', { company_id: created['id'], stage: 'Active' });
    expect(updated).toMatchObject({ id: created['id'], stage: 'Active', name: 'Live Heron Works' });
  });
});
