// Idempotency-Key on every POST/PUT/PATCH/DELETE (v2 and v1). A running key is held in memory from
// before the handler runs until its answer is stored, so of N concurrent identical requests exactly
// one runs; the others see it in progress, or, once it is stored, replay its answer. The answer is
// written once, in onSend: a keyed write costs one extra statement, not an in-progress row as well.
//
// On a shared database (PostgreSQL, several server processes) memory cannot hold a key for other
// processes: there the running key is a row instead (status 0, `RUNNING_LEASE_MS` to live), taken by
// one insert-or-take-over-if-expired statement, which the table's primary key makes exclusive across
// processes; onSend replaces it with the answer, or deletes it after a 5xx. The request's write
// transaction is left open until then (db/deferred-commit.ts), so the answer commits with the change,
// and a 5xx rolls the change back.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { sql } from 'kysely';
import { type Executor, isShared, perDatabase } from '../db/database.ts';
import {
  type DeferredCommit,
  deferredCommit,
  finishDeferred,
  withDeferredCommit,
} from '../db/deferred-commit.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';
import { ServiceError } from '../domain/errors.ts';
import { credentialOf } from '../domain/principal.ts';
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

function replay(request: FastifyRequest, reply: FastifyReply, status: number, body: string): FastifyReply {
  const payload = JSON.parse(body) as Record<string, unknown>;
  // The stored answer is repeated as it was, under this request's id.
  const meta = payload['meta'];
  if (meta && typeof meta === 'object') payload['meta'] = { ...meta, request_id: request.id };
  const error = payload['error'];
  if (error && typeof error === 'object') payload['error'] = { ...error, request_id: request.id };
  return reply.code(status).header('idempotent-replayed', 'true').send(payload);
}

/** The keys of requests still running, per database: credential and key → the running request's fingerprint. */
const inFlightOf = perDatabase(() => new Map<string, string>());

// A header value cannot hold a NUL, so credential and key cannot run into each other.
const slotOf = (credential: string, key: string) => `${credential}\u0000${key}`;

const findAnswer = prepareQuery((db: Executor, credential: string, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body', 'expires_at'])
    .where('credential', '=', textParam(credential))
    .where('key', '=', textParam(key)),
);

// Replaces only an expired row: a live answer is replayed, never run again.
function storeAnswerQuery(
  db: Executor,
  credential: string,
  key: string,
  fingerprint: string,
  statusCode: number,
  responseBody: string,
  createdAt: string,
  expiresAt: string,
) {
  return db
    .insertInto('idempotency_keys')
    .values({
      credential,
      key,
      fingerprint,
      status_code: statusCode,
      response_body: responseBody,
      created_at: createdAt,
      expires_at: expiresAt,
    })
    .onConflict((conflict) =>
      conflict.columns(['credential', 'key']).doUpdateSet((eb) => ({
        fingerprint: eb.ref('excluded.fingerprint'),
        status_code: eb.ref('excluded.status_code'),
        response_body: eb.ref('excluded.response_body'),
        created_at: eb.ref('excluded.created_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    );
}
const storeAnswer = prepareQuery(storeAnswerQuery);

/** The status of a row that holds a running key (shared databases only). */
const RUNNING = 0;
/**
 * How long a running key holds on a shared database if its process dies before answering: a retry
 * after that runs the request. Far longer than any request takes.
 */
export const RUNNING_LEASE_MS = 60 * 1000;

/**
 * Takes the key for this request: inserts a running row, or takes over an expired one. Answers whether
 * this request now holds the key; if not, another request holds it or has answered under it.
 */
async function takeSharedKey(
  db: Executor,
  credential: string,
  key: string,
  fingerprint: string,
  at: Date,
): Promise<boolean> {
  const atIso = at.toISOString();
  const taken = await db
    .insertInto('idempotency_keys')
    .values({
      credential,
      key,
      fingerprint,
      status_code: RUNNING,
      response_body: '',
      created_at: atIso,
      expires_at: new Date(at.getTime() + RUNNING_LEASE_MS).toISOString(),
    })
    .onConflict((conflict) =>
      conflict
        .columns(['credential', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          status_code: eb.ref('excluded.status_code'),
          response_body: eb.ref('excluded.response_body'),
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where('idempotency_keys.expires_at', '<=', atIso),
    )
    .returning(sql<number>`1`.as('taken'))
    .executeTakeFirst();
  return taken !== undefined;
}

/** The preHandler's work on a shared database (see the top of this file). */
async function holdSharedKey(
  request: FastifyRequest,
  reply: FastifyReply,
  credential: string,
  key: string,
  fingerprint: string,
): Promise<FastifyReply | undefined> {
  const { db, now } = request.server.ctx;
  const at = now();
  if (!(await takeSharedKey(db, credential, key, fingerprint, at))) {
    const stored = await findAnswer.executeTakeFirst(db, credential, key);
    // Gone between the two statements (a 5xx released it): as good as still running.
    if (stored === undefined) throw inProgress();
    if (stored.fingerprint !== fingerprint) throw conflict();
    if (stored.status_code === RUNNING) throw inProgress();
    return replay(request, reply, stored.status_code, stored.response_body);
  }
  request.idempotency = {
    credential,
    key,
    fingerprint,
    createdAt: at.toISOString(),
    expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  const deferred = deferredOf.get(request);
  if (deferred !== undefined) deferred.wanted = true;
  return undefined;
}

/** The deferred-commit scope of each keyed write on a shared database (see the top of this file). */
const deferredOf = new WeakMap<FastifyRequest, DeferredCommit>();

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
  if (isShared(db)) return holdSharedKey(request, reply, credential, key, fingerprint);
  const inFlight = inFlightOf(db);
  const slot = slotOf(credential, key);

  // Check and take in one synchronous step, before any await: of N concurrent identical requests
  // exactly one gets past here. The database is opened exclusively by this process, so no other
  // process can be running the same key.
  const running = inFlight.get(slot);
  if (running !== undefined) throw running === fingerprint ? inProgress() : conflict();
  inFlight.set(slot, fingerprint);

  let stored: Awaited<ReturnType<typeof findAnswer.executeTakeFirst>>;
  try {
    stored = await findAnswer.executeTakeFirst(db, credential, key);
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
  async function store(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    held: HeldIdempotencyKey,
  ) {
    const { db, now } = request.server.ctx;
    const deferred = deferredOf.get(request);
    const answered = reply.statusCode < 500 && typeof payload === 'string';
    // Released, so that a retry runs.
    const release = () =>
      db
        .deleteFrom('idempotency_keys')
        .where('credential', '=', held.credential)
        .where('key', '=', held.key)
        .where('status_code', '=', RUNNING)
        .execute();
    const answer = [
      held.credential,
      held.key,
      held.fingerprint,
      reply.statusCode,
      typeof payload === 'string' ? payload : '',
      held.createdAt,
      held.expiresAt,
    ] as const;
    if (deferred !== undefined && deferred.open !== undefined && answered) {
      // The answer, in the change's own transaction: both commit, or neither (and the answer is a 500).
      try {
        await finishDeferred(deferred, storeAnswerQuery(db, ...answer).compile());
      } catch (error) {
        await release();
        throw error;
      }
      return;
    }
    // Nothing to commit with (a change that failed, or none), or a 5xx: the change rolls back.
    if (deferred !== undefined) await finishDeferred(deferred);
    if (isShared(db) && !answered) {
      await release();
      return;
    }
    try {
      // A 5xx (or a body that is not JSON text) writes nothing, so that a retry runs.
      if (answered) await storeAnswer.executeWrite(db, ...answer);
    } finally {
      // Only once the answer is readable: a duplicate arriving now replays it instead of running.
      inFlightOf(db).delete(slotOf(held.credential, held.key));
    }
    if (++writesSincePurge >= 500) {
      writesSincePurge = 0;
      await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now().toISOString()).execute();
    }
  }
  // On a shared database, a keyed write runs in a deferred-commit scope (see the top of this file).
  if (isShared(app.ctx.db)) {
    app.addHook('preValidation', (request, _reply, done) => {
      if (!WRITE_METHODS.has(request.method) || request.headers['idempotency-key'] === undefined)
        return done();
      withDeferredCommit(() => {
        deferredOf.set(request, deferredCommit()!);
        done();
      });
    });
    // Never left open: an answer that did not pass onSend (the client went away) rolls its change back.
    app.addHook('onResponse', async (request) => {
      const deferred = deferredOf.get(request);
      if (deferred?.open !== undefined) await finishDeferred(deferred);
    });
  }
  // A callback hook, so that the answers holding no key (every read) pass through without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const held = request.idempotency;
    if (!held) return done(null, payload);
    request.idempotency = null;
    store(request, reply, payload, held).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
