// Idempotency-Key on every POST/PUT/PATCH/DELETE (v2 and v1). A running key is held in memory from
// before the handler runs until its answer is stored, so of N concurrent identical requests exactly
// one runs; the others see it in progress, or, once it is stored, replay its answer. The answer is
// written once, in onSend: a keyed write costs one extra statement, not an in-progress row as well.
//
// On a shared database (PostgreSQL, several server processes) memory cannot hold a key for other
// processes: there the request's write transaction claims the key as it begins, in the round trip of
// its `begin` (db/deferred-commit.ts `Claim`): it takes an advisory lock named by the key (a hash of
// credential and key), which PostgreSQL makes exclusive across processes, then reads the stored
// answer. A key another transaction holds answers 409 in progress; a stored answer is replayed. The
// transaction is left open until the answer is known, and the answer is written in it, in the round
// trip that commits it: the change, its answer and the end of the claim are one commit. A process
// killed mid-request loses its change and its claim with its connection, and a retry runs at once. An
// answer whose transaction rolled back (an error in its work), or that never opened one, claims the
// key anew to be stored, and yields to whoever took the key meanwhile.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { CompiledQuery } from 'kysely';
import { type Claim, type DeferredCommit, finishDeferred, newDeferredCommit } from '../db/deferred-commit.ts';
import { perDatabase } from '../db/executor.ts';
import { transact } from '../db/transaction.ts';
import { ServiceError } from '../domain/errors.ts';
import { credentialOf } from '../domain/principal.ts';
import {
  type AnswerToStore,
  claimResult,
  claimStatements,
  findAnswer,
  keysClaimedByTransaction,
  purgeExpiredAnswers,
  releaseRunningKey,
  type StoredAnswerRow,
  storeAnswer,
  storeAnswerStatement,
} from '../storage/idempotency-keys.ts';
import { errorEnvelope } from './envelope.ts';
import { type HeldIdempotencyKey, principalOf } from './request-state.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody)
    .digest('hex');
}

/** A stored answer as it is repeated: as it was, under this request's id. */
function replayed(request: FastifyRequest, body: string): Record<string, unknown> {
  const payload = JSON.parse(body) as Record<string, unknown>;
  const meta = payload['meta'];
  if (meta && typeof meta === 'object') payload['meta'] = { ...meta, request_id: request.id };
  const error = payload['error'];
  if (error && typeof error === 'object') payload['error'] = { ...error, request_id: request.id };
  return payload;
}

function replay(request: FastifyRequest, reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('idempotent-replayed', 'true').send(replayed(request, body));
}

/** Thrown where a claim finds the key answered: the request answers with the stored answer instead. */
export class StoredAnswer extends Error {
  override name = 'StoredAnswer';
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string) {
    super('answered before under this Idempotency-Key');
    this.status = status;
    this.body = body;
  }
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return replay(request, reply, this.status, this.body);
  }
}

/** The keys of requests still running, per database: credential and key → the running request's fingerprint. */
const inFlightOf = perDatabase(() => new Map<string, string>());

// A header value cannot hold a NUL, so credential and key cannot run into each other.
const slotOf = (credential: string, key: string) => `${credential}\u0000${key}`;

/** The status of a row that holds a running key (shared databases only: see `Claim.keep`). */
const RUNNING = 0;
/**
 * How long a running key's row holds on a shared database if its process dies before answering: a
 * retry after that runs the request. Far longer than any request takes. Only a request that commits
 * a first write transaction before its answer (and so before the end of its claim) writes one.
 */
export const RUNNING_LEASE_MS = 60 * 1000;

/** The claim of a key by the request's write transaction (see the top of this file). */
function claimOf(
  request: FastifyRequest,
  credential: string,
  key: string,
  fingerprint: string,
  at: Date,
): Claim {
  const { db } = request.server.ctx;
  const atIso = at.toISOString();
  return {
    // Two statements: the answer is read with a snapshot taken once the lock is held.
    statements: claimStatements(db, credential, key),
    check(results) {
      const { claimed, stored } = claimResult(results);
      const outcome = claimOutcome(claimed, stored, fingerprint, atIso);
      if (outcome === null) return;
      // Not this request's answer to store.
      request.idempotency = null;
      throw outcome;
    },
    keep: () =>
      storeAnswerStatement(db, [
        credential,
        key,
        fingerprint,
        RUNNING,
        '',
        atIso,
        new Date(at.getTime() + RUNNING_LEASE_MS).toISOString(),
      ]),
  };
}

/** What a claim ends the request with instead of running it; null when the request runs. */
function claimOutcome(
  claimed: boolean,
  stored: StoredAnswerRow | undefined,
  fingerprint: string,
  atIso: string,
): Error | null {
  if (!claimed) return inProgress();
  if (stored === undefined || stored.expires_at <= atIso) return null;
  if (stored.fingerprint !== fingerprint) return conflict();
  if (stored.status_code === RUNNING) return inProgress();
  return new StoredAnswer(stored.status_code, stored.response_body);
}

/** The preHandler's work on a shared database: the key is claimed by the write transaction. */
function holdSharedKey(request: FastifyRequest, credential: string, key: string, fingerprint: string): void {
  const at = request.server.ctx.now();
  request.idempotency = {
    credential,
    key,
    fingerprint,
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  const { deferred } = request;
  if (deferred === null) return;
  deferred.wanted = true;
  deferred.claim = claimOf(request, credential, key, fingerprint, at);
}

const inProgress = () =>
  new ServiceError(
    'idempotency_in_progress',
    'a request with this Idempotency-Key is still running; retry shortly',
    undefined,
    { 'retry-after': '1' },
  );

const conflict = () =>
  new ServiceError(
    'idempotency_conflict',
    'this Idempotency-Key was already used with a different request; use a new key',
  );

/** Runs after authentication; a no-op for reads and for requests without the header. */
export const idempotency: preHandlerAsyncHookHandler = async (request, reply) => {
  if (!WRITE_METHODS.has(request.method)) return;
  const header = request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ServiceError('validation_error', `Idempotency-Key must be 1–${MAX_KEY_LENGTH} characters`, [
      { path: 'Idempotency-Key', message: `must be 1–${MAX_KEY_LENGTH} characters` },
    ]);
  }
  const { db, now } = request.server.ctx;
  const credential = credentialOf(principalOf(request));
  const fingerprint = fingerprintOf(request);
  if (keysClaimedByTransaction(db)) return holdSharedKey(request, credential, key, fingerprint);
  const inFlight = inFlightOf(db);
  const slot = slotOf(credential, key);

  // Check and take in one synchronous step, before any await: of N concurrent identical requests
  // exactly one gets past here. The database is opened exclusively by this process, so no other
  // process can be running the same key.
  const running = inFlight.get(slot);
  if (running !== undefined) throw running === fingerprint ? inProgress() : conflict();
  inFlight.set(slot, fingerprint);

  let stored: StoredAnswerRow | undefined;
  try {
    stored = await findAnswer(db, credential, key);
  } catch (error) {
    inFlight.delete(slot);
    throw error;
  }
  const at = now();
  const atIso = at.toISOString();
  if (stored && stored.expires_at > atIso) {
    inFlight.delete(slot);
    if (stored.fingerprint !== fingerprint) throw conflict();
    return replay(request, reply, stored.status_code, stored.response_body);
  }
  // No live answer: this request runs, and onSend writes its answer and releases the key. The answer
  // joins the batch that holds the change (db/group-commit.ts) as long as the handler waits on nothing
  // but the database after its change, as every handler does: the two then commit, or are lost to a
  // crash, together, and a retry after a crash never runs a change twice.
  request.idempotency = {
    credential,
    key,
    fingerprint,
    createdAt: atIso,
    expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
};

/**
 * Stores the first answer before it is sent (2xx and 4xx; a 5xx is not stored, so that a retry can
 * run), then releases the key. Also purges expired keys now and then.
 */
export function installIdempotencyStore(app: FastifyInstance): void {
  let writesSincePurge = 0;
  /** Stores the answer; answers the payload to send instead when the key turned out to be taken. */
  async function store(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    held: HeldIdempotencyKey,
  ): Promise<string | undefined> {
    const { db } = request.server.ctx;
    const { deferred } = request;
    const answered = reply.statusCode < 500 && typeof payload === 'string';
    const answer: AnswerToStore = [
      held.credential,
      held.key,
      held.fingerprint,
      reply.statusCode,
      typeof payload === 'string' ? payload : '',
      held.createdAt,
      held.expiresAt,
    ];
    if (deferred !== null) {
      const stored = answered ? storeAnswerStatement(db, answer) : null;
      return storeShared(request, reply, deferred, held, stored);
    }
    try {
      // A 5xx (or a body that is not JSON text) writes nothing, so that a retry runs.
      if (answered) await storeAnswer(db, answer);
    } finally {
      // Only once the answer is readable: a duplicate arriving now replays it instead of running.
      inFlightOf(db).delete(slotOf(held.credential, held.key));
    }
    await purgeNowAndThen(request);
    return undefined;
  }

  /** Every 500 stored answers, deletes the expired ones (a claim treats an expired one as absent). */
  async function purgeNowAndThen(request: FastifyRequest): Promise<void> {
    if (++writesSincePurge < 500) return;
    writesSincePurge = 0;
    const { db, now } = request.server.ctx;
    await purgeExpiredAnswers(db, now().toISOString());
  }

  /**
   * On a shared database: the answer (null for a 5xx, never stored) commits with the change and ends
   * the key's claim; without a transaction holding the claim, the key is claimed anew to store it.
   */
  async function storeShared(
    request: FastifyRequest,
    reply: FastifyReply,
    deferred: DeferredCommit,
    held: HeldIdempotencyKey,
    answer: CompiledQuery | null,
  ): Promise<string | undefined> {
    const { db } = request.server.ctx;
    const heldByRow = deferred.held === 'row';
    // Released (a running row: see `Claim.keep`), so that a retry runs.
    const release = async () => {
      if (heldByRow) await releaseRunningKey(db, held.credential, held.key, RUNNING);
    };
    if (answer === null) {
      // A 5xx: the change rolls back, and the claim with it.
      await finishDeferred(deferred);
      await release();
      return undefined;
    }
    if (deferred.open === undefined && !heldByRow) {
      // Nothing holds the key (no transaction ran, or its work failed and rolled back): claimed anew,
      // and if it was taken meanwhile, what the key holds is answered instead of this answer.
      deferred.wanted = true;
      try {
        await transact(db, async () => {}, 'rows', deferred);
      } catch (error) {
        if (error instanceof StoredAnswer) {
          reply.code(error.status).header('idempotent-replayed', 'true');
          return JSON.stringify(replayed(request, error.body));
        }
        if (!(error instanceof ServiceError)) throw error;
        reply.code(error.status).headers(error.headers);
        return JSON.stringify({
          error: { code: error.code, message: error.message, request_id: request.id },
        });
      }
    }
    try {
      // The answer, in the change's own transaction: both commit, or neither (and the answer is a 500).
      if (deferred.open !== undefined) await finishDeferred(deferred, answer);
      else await db.executeQuery(answer);
    } catch (error) {
      await release();
      throw error;
    }
    await purgeNowAndThen(request);
    return undefined;
  }

  // On a shared database, a keyed write runs in a deferred-commit scope (see the top of this file).
  if (keysClaimedByTransaction(app.ctx.db)) {
    app.addHook('preValidation', (request, _reply, done) => {
      if (!WRITE_METHODS.has(request.method) || request.headers['idempotency-key'] === undefined)
        return done();
      request.deferred = newDeferredCommit();
      done();
    });
    // Never left open: an answer that did not pass onSend (the client went away) rolls its change back.
    app.addHook('onResponse', async (request) => {
      const { deferred } = request;
      if (deferred?.open !== undefined) await finishDeferred(deferred);
    });
  }
  // A callback hook, so that the answers holding no key (every read) pass through without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotency;
    if (!held) return done(null, payload);
    request.idempotency = null;
    store(request, reply, payload, held).then(
      (instead) => done(null, instead ?? payload),
      (error: Error) => {
        // Not stored, so not made (a retry runs): a 500, answered here and not by the error handler,
        // which Fastify passes over for an answer that was an error already (a 4xx).
        request.log.error({ err: error }, 'answer not stored');
        reply.code(500);
        done(null, JSON.stringify(errorEnvelope(request.id, 'internal_error', 'internal error')));
      },
    );
  });
}
