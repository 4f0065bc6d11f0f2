/**
 * The judgment cache tables of a Postgres server (migration 0008_judge_cache; see
 * pg-judge-cache.ts): the judgments, the claims of the runs asking right now, and remembered
 * facts, all keyed by judge config hash. The same tables exist, empty, on SQLite (where the
 * cache is a file per config), so that a backup restores across backends.
 */
import type { JudgmentRow } from '../../internal.js'

/** One finished judgment (the fields of `CachedJudgment`), keyed by config hash and request key. */
export interface JudgeJudgmentTable extends JudgmentRow {
  config_hash: string
}

/** A run's claim on a request it is asking now (ends with the judgment, or when it expires). */
export interface JudgeClaimTable {
  config_hash: string
  key: string
  /** The claiming store's owner id (host, pid and a random part). */
  owner: string
  host: string
  pid: number
  /** Milliseconds since the epoch, by the database's clock. */
  expires_at: number
}

/** A remembered fact about the judge server under a config (e.g. it rejected structured output). */
export interface JudgeMetaTable {
  config_hash: string
  key: string
  value: string
}
