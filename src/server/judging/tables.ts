/**
 * The judgment cache tables of a Postgres server (migration 0008_judge_cache; see
 * pg-judge-cache.ts): the judgments, the claims of the runs asking right now, and remembered
 * facts, all keyed by judge config hash. The same tables exist, empty, on SQLite (where the
 * cache is a file per config), so that a backup restores across backends.
 */

/** One finished judgment (the fields of `CachedJudgment`), keyed by config hash and request key. */
export interface JudgeJudgmentTable {
  config_hash: string
  /** sha256 hex of the exact request body. */
  key: string
  dimension: string
  turn_id: string
  status: 'ok' | 'invalid'
  score: number | null
  rationale: string | null
  reason: string | null
  attempts: number
  prompt_tokens: number
  completion_tokens: number
  content: string | null
  system_fingerprint: string | null
  model: string | null
  /** The request body sent. */
  request: string
  created_at: string
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
