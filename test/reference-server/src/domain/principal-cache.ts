// Authenticated principals, remembered per database so that a request with a known credential costs
// no query and no key derivation. The cache is kept right by construction, not by convention:
// - every write to API keys or users goes through `changeCredentials`, which forgets every cached
//   principal once the write has run (committed or not);
// - a principal read from the database is cached only if no credential change began since the read
//   began (`credentialGeneration`), so a read racing a revocation cannot put the revoked key back.
// On a shared database (PostgreSQL) another process may revoke a key: `changeCredentials` announces
// its change to every process, and a process forgets every cached principal when it hears of one
// (db/changes.ts); while it cannot hear, nothing is cached.
import { announceChange, cachesUsable, caughtUp, changeCount } from '../db/changes.ts';
import { afterCommit, type DeferredCommit } from '../db/deferred-commit.ts';
import { type Executor, perDatabase } from '../db/executor.ts';
import type { Principal } from './principal.ts';

/** A safety net only: a cached principal is re-read at least this often. */
const PRINCIPAL_TTL_MS = 60 * 1000;
const MAX_ENTRIES = 1000;

export interface CachedPrincipal {
  principal: Principal;
  /** A session token's `exp` (seconds): the caller checks it against its own clock. */
  expiresAt: number | null;
}

interface Entry extends CachedPrincipal {
  /** Date.now() after which the entry is re-read. */
  staleAt: number;
}

interface PrincipalCache {
  entries: Map<string, Entry>;
  /** Grows whenever credentials may have changed. */
  generation: number;
  /** The credential changes heard of (`changeCount`) when the entries were last forgotten. */
  heard: number;
}

const cacheOfDatabase = perDatabase((): PrincipalCache => ({ entries: new Map(), generation: 0, heard: 0 }));

/** The cache, emptied first if another process changed credentials since it was last looked at. */
function cacheOf(db: Executor): PrincipalCache {
  const cache = cacheOfDatabase(db);
  const heard = changeCount(db, 'credentials');
  if (cache.heard !== heard) {
    cache.heard = heard;
    cache.generation++;
    cache.entries.clear();
  }
  return cache;
}

/** The principal cached under `credential` (a key digest or a session token, each with its own prefix). */
export function cachedPrincipal(db: Executor, credential: string): CachedPrincipal | undefined {
  const { entries } = cacheOf(db);
  const entry = entries.get(credential);
  if (entry === undefined || !cachesUsable(db)) return undefined;
  if (entry.staleAt <= Date.now()) {
    entries.delete(credential);
    return undefined;
  }
  return entry;
}

/**
 * The principal cached under `credential`, for a request (any object that stands for it): on
 * PostgreSQL only once every credential change committed before the request arrived has been heard.
 */
export async function knownPrincipal(
  db: Executor,
  credential: string,
  request: object,
): Promise<CachedPrincipal | undefined> {
  if (cachedPrincipal(db, credential) === undefined) return undefined;
  const heard = caughtUp(db, request);
  if (heard !== true && !(await heard)) return undefined;
  return cachedPrincipal(db, credential);
}

/** Taken before reading a principal from the database, and handed back to `cachePrincipal`. */
export function credentialGeneration(db: Executor): number {
  return cacheOf(db).generation;
}

/**
 * Remembers a principal read while the credentials were at `readAt` (see `credentialGeneration`);
 * a no-op if they changed since, as what was read may already be stale.
 */
export function cachePrincipal(
  db: Executor,
  credential: string,
  principal: Principal,
  readAt: number,
  expiresAt: number | null = null,
): void {
  if (!cachesUsable(db)) return;
  const cache = cacheOf(db);
  if (cache.generation !== readAt) return;
  const { entries } = cache;
  // Bounded: the oldest entry makes room (Map keeps insertion order).
  if (entries.size >= MAX_ENTRIES && !entries.has(credential)) entries.delete(entries.keys().next().value!);
  entries.set(credential, { principal, expiresAt, staleAt: Date.now() + PRINCIPAL_TTL_MS });
}

/** Drops every cached principal of this database (and anything being read into it right now). */
export function forgetPrincipals(db: Executor): void {
  const cache = cacheOf(db);
  cache.generation++;
  cache.entries.clear();
}

/**
 * The one way to write `api_keys` or `users`: runs `write`, then forgets every cached principal,
 * whether the write committed or failed, and tells every other process to (`write` must have
 * committed when it returns, or be left open in `deferred`, the request's deferred commit, which then
 * forgets and tells once it commits). Principals read while it runs are not cached.
 */
export async function changeCredentials<T>(
  db: Executor,
  write: () => Promise<T>,
  deferred?: DeferredCommit,
): Promise<T> {
  forgetPrincipals(db);
  try {
    return await write();
  } finally {
    forgetPrincipals(db);
    // Once committed (with the request's idempotency answer, on PostgreSQL: db/deferred-commit.ts).
    await afterCommit(deferred, async () => {
      forgetPrincipals(db);
      await announceChange(db, 'credentials');
    });
  }
}
