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
    const found = (await live.run('searches', 'find_contact', {
      team_id: IDS.paidTeam,
      q: 'Live Dora',
    })) as Contact[];
    expect(found.map((contact) => contact.id)).toEqual([created['id']]);
    const updated = await live.twice('update_contact', { contact_id: created['id'], stage: 'Customer' });
    expect(updated).toMatchObject({ id: created['id'], stage: 'Customer', name: 'Live Dora Finch' });
  });
});

describe('companies, live', () => {
  it('create_company twice creates one company; find_company finds it; update_company changes it', async () => {
    const created = await live.twice('create_company', {
      team_id: IDS.paidTeam,
      name: 'Live Heron Works',
      company_info: { domain: 'heron.test' },
    });
    const found = (await live.run('searches', 'find_company', {
      team_id: IDS.paidTeam,
      q: 'Heron',
    })) as Company[];
    expect(found.map((company) => company.id)).toEqual([created['id']]);
    const updated = await live.twice('update_company', { company_id: created['id'], stage: 'Active' });
    expect(updated).toMatchObject({ id: created['id'], stage: 'Active', name: 'Live Heron Works' });
  });
});
