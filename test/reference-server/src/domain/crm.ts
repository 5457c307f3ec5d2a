// CRM contacts and companies. Both belong to a team and are gated like every team resource (member
// and paid, else 404 / 402). A contact names its company: `company_id` (an existing company of the
// team) wins over `company_name` (found by name, case-insensitively, or created); with neither, the
// contact joins the team's default company, made on first need and named after the team.
import type {
  Company,
  Contact,
  CreateCompanyRequest,
  CreateContactRequest,
  InfoEntry,
  SearchCrmQuery,
  UpdateCompanyRequest,
  UpdateContactRequest,
} from '@threadwork/shared/schemas';
import type { Executor } from '../db/executor.ts';
import type { CompaniesTable, ContactsTable } from '../db/schema.ts';
import {
  type CompanyRow,
  type ContactRow,
  findCompany,
  findCompanyNamed,
  findContact,
  findDefaultCompany,
  findTeamCompanyId,
  insertCompanyRow,
  insertContact,
  pageTeamCompanies,
  pageTeamContacts,
  updateCompanyRow,
  updateContactRow,
} from '../storage/crm.ts';
import { requirePaidTeam, requireTeamResource, type TeamAccess } from './access.ts';
import { notFound } from './errors.ts';
import { newId } from './ids.ts';
import type { Page } from './pagination.ts';

function presentContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    first_name: row.first_name,
    last_name: row.last_name,
    title: row.title,
    type: row.type,
    stage: row.stage,
    source: row.source,
    contact_info: JSON.parse(row.contact_info) as InfoEntry[],
    tags: JSON.parse(row.tags) as string[],
    company: row.company_id === null ? null : { id: row.company_id, name: row.company_name },
  };
}

function presentCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    stage: row.stage,
    company_info: JSON.parse(row.company_info) as InfoEntry[],
    tags: JSON.parse(row.tags) as string[],
  };
}

const json = (value: unknown) => JSON.stringify(value);

// ── contacts ──────────────────────────────────────────────────────────────────────────────────────

/**
 * The team's contacts whose name, title, contact details or company match `q` (case-insensitive
 * substring; every contact without `q`), grouped by company: companies by name, then the contacts of
 * each by name.
 */
export async function searchContacts(
  db: Executor,
  userId: string,
  query: SearchCrmQuery,
): Promise<Page<Contact>> {
  await requirePaidTeam(db, userId, query.team_id);
  const result = await pageTeamContacts(db, query.team_id, query.q?.trim(), query);
  return { items: result.items.map(presentContact), pagination: result.pagination };
}

/** A contact the user may see (member of its paid team); 404 otherwise. */
async function requireContact(db: Executor, userId: string, contactId: string): Promise<ContactRow> {
  const row = await findContact(db, contactId);
  if (!row) throw notFound('contact', contactId);
  await requireTeamResource(db, userId, row.team_id, 'contact', contactId);
  return row;
}

export async function getContact(db: Executor, userId: string, contactId: string): Promise<Contact> {
  return presentContact(await requireContact(db, userId, contactId));
}

/** A company of this team; 404 for any other id (another team's company is not visible here). */
async function requireCompanyOfTeam(db: Executor, teamId: string, companyId: string): Promise<string> {
  const id = await findTeamCompanyId(db, teamId, companyId);
  if (id === undefined) throw notFound('company', companyId);
  return id;
}

async function insertCompany(
  db: Executor,
  teamId: string,
  fields: Omit<CompanyRow, 'id' | 'team_id'>,
  isDefault: boolean,
  now: Date,
): Promise<string> {
  const id = newId('cmp');
  await insertCompanyRow(db, {
    id,
    team_id: teamId,
    ...fields,
    is_default: isDefault ? 1 : 0,
    created_at: now.toISOString(),
  });
  return id;
}

/** The team's company of that name (case-insensitive; the oldest if several), made if there is none. */
async function findOrCreateCompany(db: Executor, teamId: string, name: string, now: Date): Promise<string> {
  const found = await findCompanyNamed(db, teamId, name);
  if (found !== undefined) return found;
  const fields = { name, type: null, stage: null, company_info: '[]', tags: '[]' };
  return insertCompany(db, teamId, fields, false, now);
}

/** The team's default company, made on first need and named after the team. */
async function defaultCompany(db: Executor, team: TeamAccess, now: Date): Promise<string> {
  const found = await findDefaultCompany(db, team.id);
  if (found !== undefined) return found;
  const fields = { name: team.name, type: null, stage: null, company_info: '[]', tags: '[]' };
  return insertCompany(db, team.id, fields, true, now);
}

export async function createContact(
  tx: Executor,
  userId: string,
  input: CreateContactRequest,
  now: Date,
): Promise<Contact> {
  // Read to change: the company found by name, or the default one, is made once.
  const team = await requirePaidTeam(tx, userId, input.team_id, 'change');
  const companyId =
    input.company_id !== undefined
      ? await requireCompanyOfTeam(tx, team.id, input.company_id)
      : input.company_name !== undefined
        ? await findOrCreateCompany(tx, team.id, input.company_name, now)
        : await defaultCompany(tx, team, now);
  const id = newId('con');
  await insertContact(tx, {
    id,
    team_id: team.id,
    name: input.name,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    title: input.title ?? null,
    type: input.type,
    stage: input.stage ?? null,
    source: input.source ?? null,
    contact_info: json(input.contact_info ?? []),
    tags: json(input.tags ?? []),
    company_id: companyId,
    created_at: now.toISOString(),
  });
  return getContact(tx, userId, id);
}

/** Changes only the fields sent; `company_id` re-links the contact to another company of its team. */
export async function updateContact(
  tx: Executor,
  userId: string,
  contactId: string,
  patch: UpdateContactRequest,
): Promise<Contact> {
  const contact = await requireContact(tx, userId, contactId);
  const { contact_info, tags, company_id, ...plain } = patch;
  const changes: Partial<ContactsTable> = { ...plain };
  if (contact_info !== undefined) changes.contact_info = json(contact_info);
  if (tags !== undefined) changes.tags = json(tags);
  if (company_id !== undefined)
    changes.company_id = await requireCompanyOfTeam(tx, contact.team_id, company_id);
  await updateContactRow(tx, contactId, changes);
  return getContact(tx, userId, contactId);
}

// ── companies ─────────────────────────────────────────────────────────────────────────────────────

/** The team's companies whose name or details match `q` (case-insensitive substring), by name. */
export async function searchCompanies(
  db: Executor,
  userId: string,
  query: SearchCrmQuery,
): Promise<Page<Company>> {
  await requirePaidTeam(db, userId, query.team_id);
  const result = await pageTeamCompanies(db, query.team_id, query.q?.trim(), query);
  return { items: result.items.map(presentCompany), pagination: result.pagination };
}

async function requireCompany(db: Executor, userId: string, companyId: string): Promise<CompanyRow> {
  const row = await findCompany(db, companyId);
  if (!row) throw notFound('company', companyId);
  await requireTeamResource(db, userId, row.team_id, 'company', companyId);
  return row;
}

export async function getCompany(db: Executor, userId: string, companyId: string): Promise<Company> {
  return presentCompany(await requireCompany(db, userId, companyId));
}

export async function createCompany(
  tx: Executor,
  userId: string,
  input: CreateCompanyRequest,
  now: Date,
): Promise<Company> {
  const team = await requirePaidTeam(tx, userId, input.team_id);
  const id = await insertCompany(
    tx,
    team.id,
    {
      name: input.name ?? null,
      type: input.type ?? null,
      stage: input.stage ?? null,
      company_info: json(input.company_info ?? []),
      tags: json(input.tags ?? []),
    },
    false,
    now,
  );
  return getCompany(tx, userId, id);
}

export async function updateCompany(
  tx: Executor,
  userId: string,
  companyId: string,
  patch: UpdateCompanyRequest,
): Promise<Company> {
  await requireCompany(tx, userId, companyId);
  const { company_info, tags, ...plain } = patch;
  const changes: Partial<Omit<CompaniesTable, 'is_default'>> = { ...plain };
  if (company_info !== undefined) changes.company_info = json(company_info);
  if (tags !== undefined) changes.tags = json(tags);
  await updateCompanyRow(tx, companyId, changes);
  return getCompany(tx, userId, companyId);
}
