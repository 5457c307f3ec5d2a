// Authenticated principals, remembered per database so that a request with a known credential costs
// no query and no key derivation. Keys are only ever written by the seed loader today; whatever writes
// or deletes an API key (or changes its user) must call `forgetPrincipals` in the same breath. On a
// shared database (PostgreSQL) another process may delete a key, so nothing is cached there.
import { type Executor, isShared, perDatabase } from '../db/database.ts';
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

const cacheOf = perDatabase(() => new Map<string, Entry>());

/** The principal cached under `credential` (a key digest or a session token, each with its own prefix). */
export function cachedPrincipal(db: Executor, credential: string): CachedPrincipal | undefined {
  const cache = cacheOf(db);
  const entry = cache.get(credential);
  if (entry === undefined) return undefined;
  if (entry.staleAt <= Date.now()) {
    cache.delete(credential);
    return undefined;
  }
  return entry;
}

export function cachePrincipal(
  db: Executor,
  credential: string,
  principal: Principal,
  expiresAt: number | null = null,
): void {
  if (isShared(db)) return;
  const cache = cacheOf(db);
  // Bounded: the oldest entry makes room (Map keeps insertion order).
  if (cache.size >= MAX_ENTRIES && !cache.has(credential)) cache.delete(cache.keys().next().value!);
  cache.set(credential, { principal, expiresAt, staleAt: Date.now() + PRINCIPAL_TTL_MS });
}

/** Drops every cached principal of this database: call after any write to `api_keys` or `users`. */
export function forgetPrincipals(db: Executor): void {
  cacheOf(db).clear();
}
