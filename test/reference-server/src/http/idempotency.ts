// Idempotency-Key on every POST/PUT/PATCH/DELETE (v2 and v1). The key row is inserted BEFORE the
// handler runs (unique on credential + key), so of N concurrent identical requests exactly one runs;
// the others see it in progress, or, once it is stored, replay its answer.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Executor } from '../db/database.ts';
import { prepareQuery } from '../db/prepared.ts';
import { ServiceError } from '../domain/errors.ts';
import { credentialOf } from '../domain/principal.ts';
import { type HeldIdempotencyKey, principalOf } from './request-state.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;
/** An in-progress key older than this was left by a request that never answered (e.g. a crash). */
const ABANDONED_AFTER_MS = 60 * 1000;

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

const takeKey = prepareQuery(
  (
    db: Executor,
    credential: string,
    key: string,
    fingerprint: string,
    createdAt: string,
    expiresAt: string,
  ) =>
    db
      .insertInto('idempotency_keys')
      .values({
        credential,
        key,
        fingerprint,
        state: 'in_progress',
        status_code: null,
        response_body: null,
        created_at: createdAt,
        expires_at: expiresAt,
      })
      .onConflict((conflict) => conflict.columns(['credential', 'key']).doNothing()),
);

const storeAnswer = prepareQuery(
  (db: Executor, credential: string, key: string, statusCode: number, responseBody: string) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'done', status_code: statusCode, response_body: responseBody })
      .where('credential', '=', credential)
      .where('key', '=', key),
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
  const at = now();

  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await takeKey.executeWrite(
      db,
      credential,
      key,
      fingerprint,
      at.toISOString(),
      new Date(at.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    );
    if (inserted > 0) {
      request.idempotency = { credential, key };
      return;
    }
    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('credential', '=', credential)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!existing) continue; // deleted in between (a 5xx): try to take it again
    const abandoned =
      existing.state === 'in_progress' &&
      Date.parse(existing.created_at) + ABANDONED_AFTER_MS <= at.getTime();
    if (existing.expires_at <= at.toISOString() || abandoned) {
      await db
        .deleteFrom('idempotency_keys')
        .where('credential', '=', credential)
        .where('key', '=', key)
        .where('created_at', '=', existing.created_at)
        .execute();
      continue;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ServiceError(
        'idempotency_conflict',
        'this Idempotency-Key was already used with a different request; use a new key',
      );
    }
    if (existing.state !== 'done' || existing.status_code === null || existing.response_body === null) {
      throw new ServiceError(
        'idempotency_in_progress',
        'a request with this Idempotency-Key is still running; retry shortly',
        undefined,
        { 'retry-after': '1' },
      );
    }
    return replay(request, reply, existing.status_code, existing.response_body);
  }
  throw new ServiceError(
    'idempotency_in_progress',
    'this Idempotency-Key is busy; retry shortly',
    undefined,
    {
      'retry-after': '1',
    },
  );
};

/**
 * Stores the first answer before it is sent (2xx and 4xx), or frees the key on a 5xx so that a retry
 * can run. Also purges expired keys now and then.
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
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await db
        .deleteFrom('idempotency_keys')
        .where('credential', '=', held.credential)
        .where('key', '=', held.key)
        .execute();
    } else {
      await storeAnswer.executeWrite(db, held.credential, held.key, reply.statusCode, payload);
    }
    if (++writesSincePurge >= 500) {
      writesSincePurge = 0;
      await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now().toISOString()).execute();
    }
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
