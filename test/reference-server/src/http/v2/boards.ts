import {
  CreateBoardRequest,
  ListBoardsQuery,
  PaginationQuery,
  UpdateBoardRequest,
} from '@threadwork/shared/schemas';
import type { FastifyInstance } from 'fastify';
import {
  createSharedBoard,
  getBoard,
  listBoardMembers,
  listPersonalBoards,
  listTeamBoards,
  renameBoard,
} from '../../domain/boards.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';
import { parseRequest } from '../validate.ts';
import { presentBoard } from './present.ts';

const ListBoardsPageQuery = PaginationQuery.extend(ListBoardsQuery.shape);

export async function boardRoutes(app: FastifyInstance): Promise<void> {
  app.get('/boards', { preHandler: v2Guard('boards.read') }, async (request, reply) => {
    const { team_id, ...page } = parseRequest(ListBoardsPageQuery, request.query, 'query');
    const result = await listTeamBoards(app.ctx.db, principalOf(request).userId, team_id, page);
    return ok(reply, result.items.map(presentBoard), result.pagination);
  });

  app.get('/personal-boards', { preHandler: v2Guard('boards.read') }, async (request, reply) => {
    const page = parseRequest(PaginationQuery, request.query, 'query');
    const result = await listPersonalBoards(app.ctx.db, principalOf(request).userId, page);
    return ok(reply, result.items.map(presentBoard), result.pagination);
  });

  app.post('/boards', { preHandler: v2Guard('boards.write') }, async (request, reply) => {
    const input = parseRequest(CreateBoardRequest, request.body, 'body');
    const userId = principalOf(request).userId;
    const board = await runInTransaction(
      app.ctx,
      (trx) => createSharedBoard(trx, userId, input, app.ctx.now()),
      'rows',
    );
    return ok(reply, presentBoard(board));
  });

  app.get<{ Params: { id: string } }>(
    '/boards/:id',
    { preHandler: v2Guard('boards.read') },
    async (request, reply) => {
      const board = await getBoard(app.ctx.db, principalOf(request).userId, request.params.id);
      return ok(reply, presentBoard(board));
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/boards/:id',
    { preHandler: v2Guard('boards.write') },
    async (request, reply) => {
      const { name } = parseRequest(UpdateBoardRequest, request.body, 'body');
      const userId = principalOf(request).userId;
      const board = await runInTransaction(
        app.ctx,
        (trx) => renameBoard(trx, userId, request.params.id, name),
        'rows',
      );
      return ok(reply, presentBoard(board));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/boards/:id/members',
    { preHandler: v2Guard('boards.read') },
    async (request, reply) => {
      const page = parseRequest(PaginationQuery, request.query, 'query');
      const userId = principalOf(request).userId;
      const result = await listBoardMembers(app.ctx.db, userId, request.params.id, page);
      return ok(reply, result.items, result.pagination);
    },
  );
}
