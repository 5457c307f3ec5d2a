import {
  InsufficientScopeError,
  NotFoundError,
  SubscriptionRequiredError,
  type ThreadworkClient,
} from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { readAnswer, startTestServer, type TestServer, typedClient } from './helpers/server.ts';

/** The fixture seed plus a sales board, two companies and three contacts in Acme, one each elsewhere. */
const crmSeed = {
  ...fixtureSeed,
  boards: [
    ...fixtureSeed.boards,
    {
      id: 'brd_sales',
      team_id: 'team_acme',
      name: 'Pipeline',
      board_type: 'sales',
      template: 'sales',
      lists: [{ id: 'lst_leads', name: 'Leads' }],
    },
  ],
  tasks: [
    ...fixtureSeed.tasks,
    {
      id: 'tsk_deal',
      list_id: 'lst_leads',
      title: 'Stone deal',
      content_type: 'sale',
      contact_id: 'con_bob',
      deal: { value: 1200, source: 'web' },
    },
    { id: 'tsk_plain', list_id: 'lst_leads', title: 'Plain card', contact_id: 'con_bob' },
  ],
  companies: [
    {
      id: 'cmp_stone',
      team_id: 'team_acme',
      name: 'Stone Ltd',
      company_info: [{ type: 'domain', value: 'stone.test' }],
    },
    { id: 'cmp_anvil', team_id: 'team_acme', name: 'Anvil & Co', tags: ['vip'] },
    { id: 'cmp_garage', team_id: 'team_garage', name: 'Garage Inc' },
    { id: 'cmp_secret', team_id: 'team_umbrella', name: 'Umbrella Labs' },
  ],
  contacts: [
    {
      id: 'con_bob',
      team_id: 'team_acme',
      name: 'Bob Stone',
      first_name: 'Bob',
      last_name: 'Stone',
      type: 'sale',
      stage: 'Lead',
      contact_info: [{ type: 'email', value: 'bob@stone.test' }],
      company_id: 'cmp_stone',
    },
    { id: 'con_amy', team_id: 'team_acme', name: 'Amy Anvil', company_id: 'cmp_anvil' },
    { id: 'con_zed', team_id: 'team_acme', name: 'Zed Stone', company_id: 'cmp_stone' },
    { id: 'con_loner', team_id: 'team_acme', name: 'Lone Wolf' },
    { id: 'con_garage', team_id: 'team_garage', name: 'Gary', company_id: 'cmp_garage' },
    { id: 'con_secret', team_id: 'team_umbrella', name: 'Wesker', company_id: 'cmp_secret' },
  ],
} satisfies SeedInput;

describe('v2 contacts and companies', () => {
  let server: TestServer;
  let client: ThreadworkClient;
  beforeAll(async () => {
    server = await startTestServer({ seed: crmSeed });
    client = typedClient(server);
  });
  afterAll(() => server.close());

  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  describe('search', () => {
    it('lists the team’s contacts grouped by company, and only that team’s', async () => {
      const page = await client.contacts.list({ team_id: 'team_acme' });
      // No company first, then Anvil & Co, then Stone Ltd (Bob before Zed).
      expect(ids(page.data)).toEqual(['con_loner', 'con_amy', 'con_bob', 'con_zed']);
      expect(page.data[2]).toEqual({
        id: 'con_bob',
        name: 'Bob Stone',
        first_name: 'Bob',
        last_name: 'Stone',
        title: null,
        type: 'sale',
        stage: 'Lead',
        source: null,
        contact_info: [{ type: 'email', value: 'bob@stone.test' }],
        tags: [],
        company: { id: 'cmp_stone', name: 'Stone Ltd' },
      });
      expect(page.data[0]!.company).toBeNull();
    });

    it('matches q in names, contact details and the company name, case-insensitively', async () => {
      const search = async (q: string) => ids((await client.contacts.list({ team_id: 'team_acme', q })).data);
      expect(await search('stone')).toEqual(['con_bob', 'con_zed']);
      expect(await search('BOB@STONE')).toEqual(['con_bob']);
      expect(await search('anvil')).toEqual(['con_amy']);
      expect(await search('%')).toEqual([]);
      expect(await search('wesker')).toEqual([]);
    });

    it('paginates in the same grouped order', async () => {
      const seen: string[] = [];
      for await (const contact of client.contacts.list({ team_id: 'team_acme', limit: 1 }))
        seen.push(contact.id);
      expect(seen).toEqual(['con_loner', 'con_amy', 'con_bob', 'con_zed']);
      const first = await client.contacts.list({ team_id: 'team_acme', limit: 3 });
      expect(first.hasMore).toBe(true);
      expect(first.meta.pagination).toMatchObject({ limit: 3, has_more: true });
    });

    it('searches companies by name and details, ordered by name', async () => {
      const all = await client.companies.list({ team_id: 'team_acme' });
      expect(ids(all.data)).toEqual(['cmp_anvil', 'cmp_stone']);
      expect(all.data[1]).toEqual({
        id: 'cmp_stone',
        name: 'Stone Ltd',
        type: null,
        stage: null,
        company_info: [{ type: 'domain', value: 'stone.test' }],
        tags: [],
      });
      expect(ids((await client.companies.list({ team_id: 'team_acme', q: 'stone.TEST' })).data)).toEqual([
        'cmp_stone',
      ]);
      expect(ids((await client.companies.list({ team_id: 'team_acme', q: '&' })).data)).toEqual([
        'cmp_anvil',
      ]);
    });

    it('requires team_id, and gates it: 404 for a team of others, 402 for an unpaid one', async () => {
      for (const path of ['/contacts', '/companies', '/contacts?q=bob']) {
        const answer = await readAnswer(await server.v2(path));
        expect(answer.status).toBe(400);
        expect(answer.body.error.details).toEqual([expect.objectContaining({ path: 'team_id' })]);
      }
      await expect(client.contacts.list({ team_id: 'team_umbrella' })).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.companies.list({ team_id: 'team_nope' })).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.contacts.list({ team_id: 'team_garage' })).rejects.toBeInstanceOf(
        SubscriptionRequiredError,
      );
      await expect(client.companies.list({ team_id: 'team_garage' })).rejects.toBeInstanceOf(
        SubscriptionRequiredError,
      );
    });
  });

  describe('get', () => {
    it('answers the full record', async () => {
      await expect(client.contacts.get('con_amy')).resolves.toMatchObject({
        id: 'con_amy',
        name: 'Amy Anvil',
        company: { id: 'cmp_anvil', name: 'Anvil & Co' },
      });
      await expect(client.companies.get('cmp_anvil')).resolves.toMatchObject({
        name: 'Anvil & Co',
        tags: ['vip'],
      });
    });

    it('answers 404 for what the caller may not see and 402 for an unpaid team', async () => {
      for (const call of [
        () => client.contacts.get('con_secret'),
        () => client.contacts.get('con_nope'),
        () => client.companies.get('cmp_secret'),
        () => client.companies.get('cmp_nope'),
      ]) {
        const error = await call().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).message).not.toContain('team_umbrella');
      }
      await expect(client.contacts.get('con_garage')).rejects.toBeInstanceOf(SubscriptionRequiredError);
      await expect(client.companies.get('cmp_garage')).rejects.toBeInstanceOf(SubscriptionRequiredError);
    });
  });

  describe('create', () => {
    it('links company_id, which wins over company_name', async () => {
      const contact = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Cy Stone',
        company_id: 'cmp_stone',
        company_name: 'Something Else',
      });
      expect(contact.id).toMatch(/^con_/);
      expect(contact).toMatchObject({ type: 'general', company: { id: 'cmp_stone', name: 'Stone Ltd' } });
      const companies = await client.companies.list({ team_id: 'team_acme', q: 'something' });
      expect(companies.data).toEqual([]);
    });

    it('finds a company by name, case-insensitively, or creates it', async () => {
      const found = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Di',
        company_name: 'anvil & CO',
      });
      expect(found.company).toEqual({ id: 'cmp_anvil', name: 'Anvil & Co' });

      const made = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Ed',
        company_name: 'Forge Works',
      });
      expect(made.company?.id).toMatch(/^cmp_/);
      expect(made.company?.name).toBe('Forge Works');
      await expect(client.companies.get(made.company!.id!)).resolves.toMatchObject({ name: 'Forge Works' });
      const again = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Flo',
        company_name: 'Forge Works',
      });
      expect(again.company?.id).toBe(made.company?.id);
    });

    it('with neither, joins the team’s default company, made once and named after the team', async () => {
      const first = await client.contacts.create({ team_id: 'team_acme', name: 'Gil', stage: 'Lead' });
      const second = await client.contacts.create({ team_id: 'team_acme', name: 'Hal' });
      expect(first.company?.name).toBe('Acme');
      expect(second.company?.id).toBe(first.company?.id);
      expect(first).toMatchObject({ stage: 'Lead', type: 'general', contact_info: [], tags: [] });
      const acmeNamed = await client.companies.list({ team_id: 'team_acme', q: 'acme' });
      expect(ids(acmeNamed.data)).toEqual([first.company!.id]);
    });

    it('answers 404 for a company of another team and creates nothing', async () => {
      for (const company_id of ['cmp_secret', 'cmp_garage', 'cmp_nope']) {
        const error = await client.contacts
          .create({ team_id: 'team_acme', name: 'Nobody', company_id })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(NotFoundError);
      }
      const nobody = await client.contacts.list({ team_id: 'team_acme', q: 'nobody' });
      expect(nobody.data).toEqual([]);
    });

    it('gates the team and validates the body', async () => {
      await expect(client.contacts.create({ team_id: 'team_umbrella', name: 'X' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(client.companies.create({ team_id: 'team_garage', name: 'X' })).rejects.toBeInstanceOf(
        SubscriptionRequiredError,
      );
      const cases: Array<[string, unknown, string]> = [
        ['/contacts', { team_id: 'team_acme' }, 'name'],
        ['/contacts', { team_id: 'team_acme', name: 'X', email: 'x@y.z' }, 'email'],
        [
          '/contacts',
          { team_id: 'team_acme', name: 'X', contact_info: [{ type: 'email' }] },
          'contact_info[0].value',
        ],
        ['/companies', { name: 'X' }, 'team_id'],
        ['/companies', { team_id: 'team_acme', tags: [''] }, 'tags[0]'],
      ];
      for (const [path, body, field] of cases) {
        const answer = await readAnswer(await server.v2(path, { method: 'POST', body }));
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(field);
      }
    });

    it('creates a company', async () => {
      const company = await client.companies.create({
        team_id: 'team_acme',
        name: 'Quarry',
        type: 'supplier',
        company_info: [{ type: 'website', value: 'https://quarry.test' }],
        tags: ['stone'],
      });
      expect(company.id).toMatch(/^cmp_/);
      await expect(client.companies.get(company.id)).resolves.toEqual(company);
      const unnamed = await client.companies.create({ team_id: 'team_acme' });
      expect(unnamed.name).toBeNull();
    });
  });

  describe('update', () => {
    it('changes only the fields sent, clears nullable ones and re-links the company', async () => {
      const contact = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Ivy',
        title: 'CTO',
        source: 'fair',
        company_id: 'cmp_stone',
      });
      const updated = await client.contacts.update(contact.id, {
        title: null,
        stage: 'Customer',
        tags: ['key'],
        company_id: 'cmp_anvil',
      });
      expect(updated).toMatchObject({
        name: 'Ivy',
        title: null,
        source: 'fair',
        stage: 'Customer',
        tags: ['key'],
        company: { id: 'cmp_anvil', name: 'Anvil & Co' },
      });
      await expect(client.contacts.get(contact.id)).resolves.toEqual(updated);
    });

    it('updates a company, whose new name its contacts show', async () => {
      const company = await client.companies.create({ team_id: 'team_acme', name: 'Old name' });
      const contact = await client.contacts.create({
        team_id: 'team_acme',
        name: 'Jo',
        company_id: company.id,
      });
      const updated = await client.companies.update(company.id, { name: 'New name', stage: 'Active' });
      expect(updated).toMatchObject({ id: company.id, name: 'New name', stage: 'Active' });
      await expect(client.contacts.get(contact.id)).resolves.toMatchObject({
        company: { id: company.id, name: 'New name' },
      });
    });

    it('answers 404 / 402 / 400 and changes nothing', async () => {
      await expect(client.contacts.update('con_secret', { name: 'Mine' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(client.companies.update('cmp_secret', { name: 'Mine' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(client.contacts.update('con_garage', { name: 'Mine' })).rejects.toBeInstanceOf(
        SubscriptionRequiredError,
      );
      await expect(client.contacts.update('con_amy', { company_id: 'cmp_secret' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      for (const [path, body] of [
        ['/contacts/con_amy', {}],
        ['/contacts/con_amy', { name: '' }],
        ['/contacts/con_amy', { team_id: 'team_garage' }],
        ['/companies/cmp_anvil', {}],
      ] as const) {
        const answer = await readAnswer(await server.v2(path, { method: 'PATCH', body }));
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(answer.body.error.code).toBe('validation_error');
      }
      await expect(client.contacts.get('con_amy')).resolves.toMatchObject({
        name: 'Amy Anvil',
        company: { id: 'cmp_anvil' },
      });
    });
  });

  it('replays an idempotent create instead of making a second contact', async () => {
    const send = () =>
      server.v2('/contacts', {
        method: 'POST',
        body: { team_id: 'team_acme', name: 'Kit Once' },
        headers: { 'idempotency-key': 'contact-once' },
      });
    const first = await readAnswer(await send());
    const second = await readAnswer(await send());
    expect(second.body.data).toEqual(first.body.data);
    expect(ids((await client.contacts.list({ team_id: 'team_acme', q: 'kit once' })).data)).toHaveLength(1);
  });

  it('needs crm.read to read and crm.write to write', async () => {
    const readOnly = typedClient(server, { apiKey: SECRETS.adaBoardsRead });
    for (const call of [
      () => readOnly.contacts.list({ team_id: 'team_acme' }),
      () => readOnly.contacts.get('con_bob'),
      () => readOnly.contacts.create({ team_id: 'team_acme', name: 'X' }),
      () => readOnly.contacts.update('con_bob', { name: 'X' }),
      () => readOnly.companies.list({ team_id: 'team_acme' }),
      () => readOnly.companies.get('cmp_stone'),
      () => readOnly.companies.create({ team_id: 'team_acme', name: 'X' }),
      () => readOnly.companies.update('cmp_stone', { name: 'X' }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InsufficientScopeError);
    }
    const reader = await client.apiKeys.create({ name: 'crm reader', scopes: ['crm.read'] });
    const crmReader = typedClient(server, { apiKey: reader.secret! });
    await expect(crmReader.contacts.get('con_bob')).resolves.toMatchObject({ id: 'con_bob' });
    const denied = await crmReader.contacts
      .update('con_bob', { name: 'X' })
      .catch((caught: unknown) => caught);
    expect((denied as InsufficientScopeError).details).toEqual({ required_scopes: ['crm.write'] });
  });

  it('shows contact_id on sale cards only, and the contact it names is readable', async () => {
    const deal = await client.tasks.get('tsk_deal');
    expect(deal).toMatchObject({ content_type: 'sale', contact_id: 'con_bob' });
    await expect(client.contacts.get(deal.contact_id!)).resolves.toMatchObject({ name: 'Bob Stone' });
    await expect(client.tasks.get('tsk_plain')).resolves.toMatchObject({
      content_type: 'task',
      contact_id: null,
    });
  });
});
