// v2 AI analysis of a thread: classify now (ai.write) or read the cached answer (ai.read).
import type { FastifyInstance } from 'fastify';
import { analyzeThread, getAnalysis } from '../../domain/analysis.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { ok } from '../envelope.ts';
import { v2Guard } from '../guards.ts';
import { principalOf } from '../request-state.ts';

type WithId = { Params: { id: string } };

export async function analysisRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;

  app.post<WithId>(
    '/email-threads/:id/analysis',
    { preHandler: v2Guard('ai.write') },
    async (request, reply) => {
      const userId = principalOf(request).userId;
      const analysis = await runInTransaction(ctx, (tx) =>
        analyzeThread(tx, userId, request.params.id, ctx.now()),
      );
      return ok(reply, analysis);
    },
  );

  app.get<WithId>('/email-threads/:id/analysis', { preHandler: v2Guard('ai.read') }, async (request, reply) =>
    ok(reply, await getAnalysis(ctx.db, principalOf(request).userId, request.params.id, ctx.now())),
  );
}
