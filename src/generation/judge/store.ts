/**
 * What a judging run needs of a judgment cache, as one async interface: the SQLite
 * {@link JudgeCache} (the CLI's `--cache` file, wrapped by {@link judgmentStoreOf}) or another
 * store sharing the same claim semantics (the server's Postgres tables, see
 * src/server/judging/pg-judge-cache.ts). The runner awaits every call; a store keeps the
 * cache.ts rules: a finished judgment is committed at once and ends its claim in the same
 * transaction; a claim is `taken` while a live other owner holds it and is taken over when it
 * expired (or its owner's process on this host is gone).
 */
import { type CachedJudgment, type ClaimResult, JudgeCache } from './cache.js'

/** A judgment cache as a judging run uses it (see the module comment). */
export interface JudgmentStore {
  /** This store's claim owner id. */
  readonly owner: string
  /** The finished judgment for a request key, if any. */
  get(key: string): Promise<CachedJudgment | null>
  /** Claim the request `key` for `leaseMs`: `done` (cached), `mine` or `taken`. */
  claim(key: string, leaseMs: number): Promise<ClaimResult>
  /** Give up our claim on `key` (the request ended without a judgment to cache). */
  release(key: string): Promise<void>
  /** Commit one finished judgment, ending our claim on its key in the same transaction. */
  put(j: CachedJudgment): Promise<void>
  /** Extend every claim of ours to now + `leaseMs`. */
  renewClaims(leaseMs: number): Promise<void>
  /** Give up every claim of ours. */
  releaseClaims(): Promise<void>
  /** A remembered fact about the judge server (e.g. that it rejected structured output). */
  getMeta(key: string): Promise<string | null>
  setMeta(key: string, value: string): Promise<void>
}

/** The SQLite cache file as a {@link JudgmentStore} (its sync calls, wrapped); a store is returned as is. */
export function judgmentStoreOf(cache: JudgeCache | JudgmentStore): JudgmentStore {
  if (!(cache instanceof JudgeCache)) return cache
  return {
    owner: cache.owner,
    get: async (key) => cache.get(key),
    claim: async (key, leaseMs) => cache.claim(key, leaseMs),
    release: async (key) => cache.release(key),
    put: async (j) => cache.put(j),
    renewClaims: async (leaseMs) => cache.renewClaims(leaseMs),
    releaseClaims: async () => cache.releaseClaims(),
    getMeta: async (key) => cache.getMeta(key),
    setMeta: async (key, value) => cache.setMeta(key, value),
  }
}
