import {
  CreateCompanyRequest,
  CreateContactRequest,
  SearchCrmQuery,
  UpdateCompanyRequest,
  UpdateContactRequest,
} from '@threadwork/shared/schemas';
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
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';

type ById = { Params: { id: string } };

/** Contacts and companies: `team_id` is required to search, and both are gated like every team resource. */
export async function crmRoutes(app: FastifyInstance): Promise<void> {
  const read = v2Guard('crm.read');
  const write = v2Guard('crm.write');
  // A create of a contact locks its team's row (crm.ts); the others decide on nothing another write changes.
  const inTransaction = <T>(work: (tx: Executor) => Promise<T>) => runInTransaction(app.ctx, work, 'rows');

  app.get('/contacts', { preHandler: read }, async (request, reply) => {
    const query = parseRequest(SearchCrmQuery, request.query, 'query');
    const result = await searchContacts(app.ctx.db, principalOf(request).userId, query);
    return ok(reply, result.items, result.pagination);
  });

  app.post('/contacts', { preHandler: write }, async (request, reply) => {
    const input = parseRequest(CreateContactRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const contact = await inTransaction((tx) => createContact(tx, userId, input, app.ctx.now()));
    return ok(reply, contact);
  });

  app.get<ById>('/contacts/:id', { preHandler: read }, async (request, reply) =>
    ok(reply, await getContact(app.ctx.db, principalOf(request).userId, request.params.id)),
  );

  app.patch<ById>('/contacts/:id', { preHandler: write }, async (request, reply) => {
    const patch = parseRequest(UpdateContactRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const contact = await inTransaction((tx) => updateContact(tx, userId, request.params.id, patch));
    return ok(reply, contact);
  });

  app.get('/companies', { preHandler: read }, async (request, reply) => {
    const query = parseRequest(SearchCrmQuery, request.query, 'query');
    const result = await searchCompanies(app.ctx.db, principalOf(request).userId, query);
    return ok(reply, result.items, result.pagination);
  });

  app.post('/companies', { preHandler: write }, async (request, reply) => {
    const input = parseRequest(CreateCompanyRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const company = await inTransaction((tx) => createCompany(tx, userId, input, app.ctx.now()));
    return ok(reply, company);
  });

  app.get<ById>('/companies/:id', { preHandler: read }, async (request, reply) =>
    ok(reply, await getCompany(app.ctx.db, principalOf(request).userId, request.params.id)),
  );

  app.patch<ById>('/companies/:id', { preHandler: write }, async (request, reply) => {
    const patch = parseRequest(UpdateCompanyRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const company = await inTransaction((tx) => updateCompany(tx, userId, request.params.id, patch));
    return ok(reply, company);
  });
}
