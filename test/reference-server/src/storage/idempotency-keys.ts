// The stored answers of Idempotency-Keys (`idempotency_keys`), and how a running key is held, per
// engine. The rule (what a key answers, when a request runs) is http/idempotency.ts's; this holds its
// statements. On a database this process owns (SQLite) a running key is held in the process's memory;
// on one other processes serve too (PostgreSQL) memory cannot hold a key for them, and the request's
// write transaction claims it instead, with an advisory lock named by the key (`claimStatements`).
import { type CompiledQuery, sql } from 'kysely';
import { withLiterals } from '../db/deferred-commit.ts';
import { type Executor, isShared } from '../db/executor.ts';
import { prepareQuery, textParam } from '../db/prepared.ts';

/**
 * Whether a running key is claimed by its request's write transaction (`claimStatements`), rather
 * than held in this process's memory: so where other processes may run the same key.
 */
export function keysClaimedByTransaction(db: Executor): boolean {
  return isShared(db);
}

const selectAnswer = prepareQuery((db: Executor, credential: string, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status_code', 'response_body', 'expires_at'])
    .where('credential', '=', textParam(credential))
    .where('key', '=', textParam(key)),
);

/** What a key holds: its request's fingerprint and answer, and when it expires. */
export type StoredAnswerRow = NonNullable<Awaited<ReturnType<typeof selectAnswer.executeTakeFirst>>>;

/** The answer stored under the credential's key, expired or not; undefined if none. */
export function findAnswer(
  db: Executor,
  credential: string,
  key: string,
): Promise<StoredAnswerRow | undefined> {
  return selectAnswer.executeTakeFirst(db, credential, key);
}

/** An answer as `storeAnswer` writes it. */
export type AnswerToStore = readonly [
  credential: string,
  key: string,
  fingerprint: string,
  statusCode: number,
  responseBody: string,
  createdAt: string,
  expiresAt: string,
];

// Replaces only an expired row: a live answer is replayed, never run again.
const insertAnswer = prepareQuery(
  (
    db: Executor,
    ...[credential, key, fingerprint, statusCode, responseBody, createdAt, expiresAt]: AnswerToStore
  ) =>
    db
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
      ),
);

/** Stores an answer under its key (replacing an expired one). */
export async function storeAnswer(db: Executor, answer: AnswerToStore): Promise<void> {
  await insertAnswer.executeWrite(db, ...answer);
}

/** `storeAnswer` as a statement, to send in a transaction's last round trip. */
export function storeAnswerStatement(db: Executor, answer: AnswerToStore): CompiledQuery {
  return insertAnswer.bound(db, ...answer);
}

/** A seed of ours for hashing keys into advisory lock names (apart from every other use of the hash). */
const CLAIM_SEED = 0x7477_6964; // "twid"

/** Takes the advisory lock named by the key, if free (answers `claimed`). */
const claimKey = prepareQuery((db: Executor, credential: string, key: string) =>
  db.selectNoFrom(
    // A header value holds no line break, so credential and key cannot run into each other.
    sql<boolean>`pg_try_advisory_xact_lock(hashtextextended(${credential} || E'\\n' || ${key}, ${CLAIM_SEED}))`.as(
      'claimed',
    ),
  ),
);

/**
 * The statements that claim a key in a write transaction's opening (db/deferred-commit.ts `Claim`),
 * two of them so that the answer is read with a snapshot taken once the lock is held; `claimResult`
 * reads their results.
 */
export function claimStatements(db: Executor, credential: string, key: string): string[] {
  return [
    withLiterals(claimKey.bound(db, credential, key)),
    withLiterals(selectAnswer.bound(db, credential, key)),
  ];
}

/** Whether the claim took the key, and what the key held then. */
export function claimResult(results: readonly { rows: Record<string, unknown>[] }[]): {
  claimed: boolean;
  stored: StoredAnswerRow | undefined;
} {
  const [locked, found] = results;
  return {
    claimed: locked?.rows[0]?.['claimed'] === true,
    stored: found?.rows[0] as StoredAnswerRow | undefined,
  };
}

/** Deletes the key's row if it holds a running key (status `running`), so that a retry runs. */
export async function releaseRunningKey(
  db: Executor,
  credential: string,
  key: string,
  running: number,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('credential', '=', credential)
    .where('key', '=', key)
    .where('status_code', '=', running)
    .execute();
}

/** Deletes the answers expired by `nowIso`. */
export async function purgeExpiredAnswers(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', nowIso).execute();
}
