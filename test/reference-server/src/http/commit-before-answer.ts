// No answer leaves before the writes it may depend on have committed: its own change, and any change
// of another request that it read while their batch was open (see db/group-commit.ts). If that batch
// fails to commit, the answer becomes a 500 and the client retries; nothing it was told is lost.
import type { FastifyInstance } from 'fastify';
import { whenCommitted } from '../db/transaction.ts';

/** Registered after every other onSend hook (the idempotency answer joins the change's batch first). */
export function installCommitBeforeAnswer(app: FastifyInstance): void {
  const { db } = app.ctx;
  // A callback hook: when nothing is waiting to commit (most reads), the answer passes without a promise.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const committed = whenCommitted(db);
    if (committed === null) return done(null, payload);
    committed.then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
