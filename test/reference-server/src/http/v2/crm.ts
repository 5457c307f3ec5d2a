import { companies, contacts } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/executor.ts';
import {
  createCompany,
  createContact,
  getCompany,
  getContact,
  searchCompanies,
  searchContacts,
  updateCompany,
  updateContact,
} from '../../domain/crm.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';

/** Contacts and companies: `team_id` is required to search, and both are gated like every team resource. */
export async function crmRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  // A create of a contact locks its team's row (crm.ts); the others decide on nothing another write changes.
  const inTransaction = <T>(work: (tx: Executor) => Promise<T>) => runInTransaction(ctx, work, 'rows');

  route(app, contacts.list, ({ userId, query }) => searchContacts(ctx.db, userId, query));

  route(app, contacts.create, ({ userId, body }) =>
    inTransaction((tx) => createContact(tx, userId, body, ctx.now())),
  );

  route(app, contacts.get, ({ userId, params }) => getContact(ctx.db, userId, params.id));

  route(app, contacts.update, ({ userId, params, body }) =>
    inTransaction((tx) => updateContact(tx, userId, params.id, body)),
  );

  route(app, companies.list, ({ userId, query }) => searchCompanies(ctx.db, userId, query));

  route(app, companies.create, ({ userId, body }) =>
    inTransaction((tx) => createCompany(tx, userId, body, ctx.now())),
  );

  route(app, companies.get, ({ userId, params }) => getCompany(ctx.db, userId, params.id));

  route(app, companies.update, ({ userId, params, body }) =>
    inTransaction((tx) => updateCompany(tx, userId, params.id, body)),
  );
}
