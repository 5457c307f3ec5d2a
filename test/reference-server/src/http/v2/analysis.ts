// v2 AI analysis of a thread: classify now (ai.write) or read the cached answer (ai.read).
import { emailThreads } from '@threadwork/shared/operations';
import type { FastifyInstance } from 'fastify';
import { analyzeThread, getAnalysis } from '../../domain/analysis.ts';
import { runInTransaction } from '../../domain/transaction.ts';
import { route } from '../route.ts';

export async function analysisRoutes(app: FastifyInstance): Promise<void> {
  route(app, emailThreads.analyze, ({ ctx, userId, params }) =>
    runInTransaction(ctx, (tx) => analyzeThread(tx, userId, params.id, ctx.now())),
  );

  route(app, emailThreads.getAnalysis, ({ ctx, userId, params }) =>
    getAnalysis(ctx.db, userId, params.id, ctx.now()),
  );
}
