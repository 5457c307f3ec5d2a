import { companies, contacts } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
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
  // Writes run as `rows`: a create of a contact locks its team's row (crm.ts); the others decide on
  // nothing another write changes.

  route(app, contacts.list, ({ ctx, userId, query }) => searchContacts(ctx.db, userId, query));

  route(app, contacts.create, ({ ctx, userId, body }) =>
    runInTransaction(ctx, (tx) => createContact(tx, userId, body, ctx.now()), 'rows'),
  );

  route(app, contacts.get, ({ ctx, userId, params }) => getContact(ctx.db, userId, params.id));

  route(app, contacts.update, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => updateContact(tx, userId, params.id, body), 'rows'),
  );

  route(app, companies.list, ({ ctx, userId, query }) => searchCompanies(ctx.db, userId, query));

  route(app, companies.create, ({ ctx, userId, body }) =>
    runInTransaction(ctx, (tx) => createCompany(tx, userId, body, ctx.now()), 'rows'),
  );

  route(app, companies.get, ({ ctx, userId, params }) => getCompany(ctx.db, userId, params.id));

  route(app, companies.update, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => updateCompany(tx, userId, params.id, body), 'rows'),
  );
}
