/**
 * Where a server keeps its judgment cache, by database backend: on SQLite one cache file per
 * judge config hash under the data folder (`judge/cache-<hash12>.sqlite`, the CLI's cache
 * format, shared by the server's scoring child and its budget checks); on Postgres the
 * database's `judge_*` tables (pg-judge-cache.ts), shared by every worker on every machine.
 * The judging run and the budget estimate both open the cache through {@link openJudgeStore}.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { JudgeCache, type JudgmentStore, judgmentStoreOf } from '../../internal.js'
import { type Db, dialectOf } from '../db/database.js'
import { PgJudgeCache } from './pg-judge-cache.js'

/** A server's judgment cache: a folder of cache files, or a Postgres database. */
export type JudgeCacheHome =
  | { readonly kind: 'file'; readonly dataDir: string }
  | { readonly kind: 'postgres'; readonly db: Db }

/** The judgment cache file of a judge config in a server's data folder (SQLite backend). */
export function judgeCacheFile(serverDataDir: string, configHash: string): string {
  return join(serverDataDir, 'judge', `cache-${configHash.slice(0, 12)}.sqlite`)
}

/** The cache home of a server on `db` with data folder `dataDir`. */
export function judgeCacheHome(dataDir: string, db: Db): JudgeCacheHome {
  return dialectOf(db) === 'postgres' ? { kind: 'postgres', db } : { kind: 'file', dataDir }
}

/** An open judgment store and how to close it. */
export interface OpenJudgeStore {
  readonly store: JudgmentStore
  close(): Promise<void>
}

/**
 * Open the store of a judge config. A cache file is created (with its folder) when `create`;
 * otherwise a missing file gives null (nothing is cached yet). The Postgres store always exists.
 */
export function openJudgeStore(
  home: JudgeCacheHome,
  configHash: string,
  options: { readonly create: boolean },
): OpenJudgeStore | null {
  if (home.kind === 'postgres') {
    const store = new PgJudgeCache(home.db, configHash)
    return { store, close: () => store.releaseClaims() }
  }
  const file = judgeCacheFile(home.dataDir, configHash)
  if (!options.create && !existsSync(file)) return null
  mkdirSync(dirname(file), { recursive: true })
  const cache = JudgeCache.open(file, configHash)
  return { store: judgmentStoreOf(cache), close: async () => cache.close() }
}
