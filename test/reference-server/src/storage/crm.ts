// The CRM repository: a team's contacts (with their company's name) and companies, searched by
// substring, and the writes that make and change them. Which company a contact joins is domain/crm.ts's
// rule.
import { type Expression, type Insertable, type SqlBool, sql } from 'kysely';
import type { Executor } from '../db/executor.ts';
import type { CompaniesTable, ContactsTable } from '../db/schema.ts';
import type { PageRequest } from '../domain/pagination.ts';
import { paginate } from './pagination.ts';

/** A contact as it is shown, with its company's name. */
export type ContactRow = Omit<ContactsTable, 'created_at'> & { company_name: string | null };
/** A company as it is shown. */
export type CompanyRow = Omit<CompaniesTable, 'created_at' | 'is_default'>;

const CONTACT_COLUMNS = [
  'contacts.id',
  'contacts.team_id',
  'contacts.name',
  'contacts.first_name',
  'contacts.last_name',
  'contacts.title',
  'contacts.type',
  'contacts.stage',
  'contacts.source',
  'contacts.contact_info',
  'contacts.tags',
  'contacts.company_id',
  'companies.name as company_name',
] as const;

const COMPANY_COLUMNS = [
  'companies.id',
  'companies.team_id',
  'companies.name',
  'companies.type',
  'companies.stage',
  'companies.company_info',
  'companies.tags',
] as const;

/**
 * `lower(column) like lower('%q%')`, with q's own `%`, `_` and `\` taken literally (portable SQL). Both
 * sides are lowered by the database, so they agree on what lowercase is.
 */
function contains(column: string, q: string): Expression<SqlBool> {
  const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
}

// ── contacts ──────────────────────────────────────────────────────────────────────────────────────

function selectContacts(db: Executor) {
  return db
    .selectFrom('contacts')
    .leftJoin('companies', 'companies.id', 'contacts.company_id')
    .select(CONTACT_COLUMNS);
}

/**
 * A page of the team's contacts whose name, title, contact details or company match `q`
 * (case-insensitive substring; every contact without `q`), grouped by company: companies by name, then
 * the contacts of each by name.
 */
export function pageTeamContacts(db: Executor, teamId: string, q: string | undefined, page: PageRequest) {
  let matching = selectContacts(db)
    .select([
      sql<string>`coalesce(lower(companies.name), '')`.as('company_key'),
      sql<string>`coalesce(contacts.company_id, '')`.as('company_ref'),
      sql<string>`coalesce(lower(contacts.name), '')`.as('name_key'),
    ])
    .where('contacts.team_id', '=', teamId);
  if (q) {
    matching = matching.where((eb) =>
      eb.or(
        [
          'contacts.name',
          'contacts.first_name',
          'contacts.last_name',
          'contacts.title',
          'contacts.contact_info',
          'companies.name',
        ].map((column) => contains(column, q)),
      ),
    );
  }
  const sortColumns = ['c.company_key', 'c.company_ref', 'c.name_key', 'c.id'];
  return paginate(
    page,
    sortColumns,
    (after, take) => {
      let rows = db.selectFrom(matching.as('c')).selectAll();
      if (after) rows = rows.where(after);
      return rows
        .orderBy('c.company_key')
        .orderBy('c.company_ref')
        .orderBy('c.name_key')
        .orderBy('c.id')
        .limit(take)
        .execute();
    },
    (row) => [row.company_key, row.company_ref, row.name_key, row.id],
  );
}

/** The contact; undefined if none. */
export function findContact(db: Executor, contactId: string): Promise<ContactRow | undefined> {
  return selectContacts(db).where('contacts.id', '=', contactId).executeTakeFirst();
}

export async function insertContact(tx: Executor, row: ContactsTable): Promise<void> {
  await tx.insertInto('contacts').values(row).execute();
}

export async function updateContactRow(
  tx: Executor,
  contactId: string,
  changes: Partial<ContactsTable>,
): Promise<void> {
  await tx.updateTable('contacts').set(changes).where('id', '=', contactId).execute();
}

// ── companies ─────────────────────────────────────────────────────────────────────────────────────

/** The id of the team's company of this id; undefined if the team has none. */
export async function findTeamCompanyId(
  db: Executor,
  teamId: string,
  companyId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('companies')
    .select('id')
    .where('id', '=', companyId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.id;
}

/** The id of the team's company of that name (case-insensitive; the oldest if several); undefined if none. */
export async function findCompanyNamed(
  db: Executor,
  teamId: string,
  name: string,
): Promise<string | undefined> {
  const found = await db
    .selectFrom('companies')
    .select('id')
    .where('team_id', '=', teamId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return found?.id;
}

/** The id of the team's default company (the oldest if several); undefined if none. */
export async function findDefaultCompany(db: Executor, teamId: string): Promise<string | undefined> {
  const found = await db
    .selectFrom('companies')
    .select('id')
    .where('team_id', '=', teamId)
    .where('is_default', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return found?.id;
}

export async function insertCompanyRow(db: Executor, row: Insertable<CompaniesTable>): Promise<void> {
  await db.insertInto('companies').values(row).execute();
}

/** A page of the team's companies whose name or details match `q` (case-insensitive substring), by name. */
export function pageTeamCompanies(db: Executor, teamId: string, q: string | undefined, page: PageRequest) {
  let matching = db
    .selectFrom('companies')
    .select(COMPANY_COLUMNS)
    .select(sql<string>`coalesce(lower(companies.name), '')`.as('name_key'))
    .where('companies.team_id', '=', teamId);
  if (q) {
    matching = matching.where((eb) =>
      eb.or(['companies.name', 'companies.company_info'].map((column) => contains(column, q))),
    );
  }
  return paginate(
    page,
    ['c.name_key', 'c.id'],
    (after, take) => {
      let rows = db.selectFrom(matching.as('c')).selectAll();
      if (after) rows = rows.where(after);
      return rows.orderBy('c.name_key').orderBy('c.id').limit(take).execute();
    },
    (row) => [row.name_key, row.id],
  );
}

/** The company; undefined if none. */
export function findCompany(db: Executor, companyId: string): Promise<CompanyRow | undefined> {
  return db
    .selectFrom('companies')
    .select(COMPANY_COLUMNS)
    .where('companies.id', '=', companyId)
    .executeTakeFirst();
}

export async function updateCompanyRow(
  tx: Executor,
  companyId: string,
  changes: Partial<Omit<CompaniesTable, 'is_default'>>,
): Promise<void> {
  await tx.updateTable('companies').set(changes).where('id', '=', companyId).execute();
}
