import { customFields } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import {
  createCustomField,
  fieldUpdateLocking,
  listBoardFields,
  updateCustomField,
} from '../../domain/custom-fields.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';

export async function customFieldRoutes(app: FastifyInstance): Promise<void> {
  route(app, customFields.list, ({ ctx, userId, params, query }) =>
    listBoardFields(ctx.db, userId, params.id, query),
  );

  route(app, customFields.create, ({ ctx, userId, params, body }) =>
    runInTransaction(ctx, (tx) => createCustomField(tx, userId, params.id, body), 'rows'),
  );

  route(app, customFields.update, ({ ctx, userId, params, body }) =>
    runInTransaction(
      ctx,
      (tx) => updateCustomField(tx, userId, params.id, body, ctx.now()),
      fieldUpdateLocking(body),
    ),
  );
}
