/**
 * The tables of the leaderboard server, as Kysely types (one interface per table). Ids are
 * random opaque strings; instants are ISO 8601 UTC text; JSON columns hold text.
 */
import type { Generated } from 'kysely'
import type { JudgeClaimTable, JudgeJudgmentTable, JudgeMetaTable } from '../judging/tables.js'
import type {
  JudgedItemTable,
  RaterInviteTable,
  RaterTable,
  RatingAssignmentTable,
  RatingSampleTable,
  RatingTable,
} from '../raters/tables.js'

export interface UserTable {
  id: string
  name: string
  role: 'organizer' | 'member'
  /** The member's team (null for organizers). */
  team_id: string | null
  /** `scrypt$N$r$p$salt$hash` (see auth/passwords.ts). */
  password_hash: string
  created_at: string
}

export interface TeamTable {
  id: string
  name: string
  /** Organizer baselines: marked on the board, no quota. */
  is_baseline: number
  /** Shown on boards and exports by an alias (see board.ts), without run names. */
  anonymous: Generated<number>
  created_at: string
}

export interface InviteTable {
  id: string
  team_id: string
  /** sha256 of the single-use token in the invite link. */
  token_hash: string
  created_by: string
  created_at: string
  used_at: string | null
}

export interface ApiTokenTable {
  id: string
  team_id: string
  user_id: string
  label: string
  /** sha256 of the token; the token itself is shown once. */
  token_hash: string
  created_at: string
  revoked_at: string | null
}

export interface SessionTable {
  /** sha256 of the cookie value. */
  id_hash: string
  user_id: string
  csrf: string
  created_at: string
  expires_at: string
}

export type SubmissionState = 'queued' | 'scoring' | 'scored' | 'failed'

export interface SubmissionTable {
  id: string
  team_id: string
  user_id: string | null
  track: string
  phase: string
  state: SubmissionState
  /** Why it failed (failed only). */
  reason: string | null
  /** Whether it counts against the team's limits (false for failed, timed-out and baseline runs). */
  charged: number
  original_name: string
  /**
   * Where the stored run is (see storage/run-store.ts): `runs/ID/NAME`, relative to the data
   * folder (the directory store), or `db:runs/ID/NAME` (the database store, `run_chunks`).
   */
  file: string
  run_sha256: string
  bytes: number
  metadata: string
  attempts: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  /** The request that stored it (its `X-Request-Id`; see ops/log.ts), carried into the job's log lines. */
  request_id: Generated<string | null>
  /**
   * Judged tracks with a budget: the judge cost estimated when it was taken, held against the
   * budget while it is queued or scoring (see judging/budget.ts); null otherwise.
   */
  judge_estimate: Generated<number | null>
}

export interface ScoreTable {
  id: Generated<number>
  submission_id: string
  /** 1, 2, … per submission (re-scoring adds a version). */
  version: number
  /** The primary measure's value (null: the run could not be scored on it). */
  primary_value: number | null
  /** JSON: { measure: value } of every column. */
  columns: string
  /** JSON: [{ query, values: { measure: value } }]. */
  per_query: string
  /** JSON: warnings and counts (dropped, deduplicated, zero-filled). */
  notes: string
  /** JSON: see `Provenance` in scoring.ts. */
  provenance: string
  /** The qrels version it was scored against (1: the config's qrels). */
  qrels_version: Generated<number>
  /** The trecscore version that computed it ('' before migration 0004): with the submission and qrels version, unique. */
  scorer_version: Generated<string>
  created_at: string
}

/** A qrels version an organizer added (version 1, the config's file, is not stored). */
export interface QrelsVersionTable {
  track: string
  phase: string
  /** 2, 3, … */
  version: number
  /** Path relative to the data folder. */
  file: string
  sha256: string
  note: string
  created_by: string
  created_at: string
}

/** Re-scoring one scored submission against a new qrels version (a new score version; the old ones are kept). */
export interface RescoreTable {
  id: string
  submission_id: string
  qrels_version: number
  state: 'queued' | 'scoring' | 'done' | 'failed'
  attempts: number
  reason: string | null
  created_at: string
  /** The request that started it (see ops/log.ts). */
  request_id: Generated<string | null>
}

/** The submission a team selected to count on a board (`limits.counts: "selected"`). */
export interface SelectionTable {
  team_id: string
  track: string
  phase: string
  submission_id: string
  selected_at: string
}

export interface ReleaseTable {
  phase: string
  released_at: string
  released_by: string
}

/** The topic ids of a qrels track's phase and qrels version, published by a worker (see topic-lists.ts). */
export interface TopicListTable {
  track: string
  phase: string
  qrels_version: number
  /** base64 of the ids' bytes joined by newlines (ids are byte strings; Postgres text holds no NUL). */
  topics: string
  count: number
  created_at: string
}

/** The allowed requests of one rate-limit key (see auth/rate-limit.ts). */
export interface RateHitTable {
  key: string
  /** JSON array of the allowed requests' instants (ms since the epoch) still in their window. */
  hits: string
  /** The newest of them (old keys are pruned by it). */
  last_at: number
}

/** A judged track and phase whose judging an organizer paused (see judging/controls.ts). */
export interface JudgingPauseTable {
  track: string
  phase: string
  paused_by: string
  paused_at: string
}

/**
 * One chunk (at most 1 MiB) of one file of a submission stored in the database (see
 * storage/database-store.ts): `path` is relative to the submission's stored folder (`NAME`
 * for a one-file run, `NAME/…` for a directory's files, `judge-…/…` for a judged track's
 * outputs); `seq` numbers the chunks from 0 (an empty file has one empty chunk).
 */
export interface RunChunkTable {
  submission_id: string
  path: string
  seq: number
  created_at: string
  data: Uint8Array
}

export interface Database {
  users: UserTable
  teams: TeamTable
  invites: InviteTable
  api_tokens: ApiTokenTable
  sessions: SessionTable
  submissions: SubmissionTable
  scores: ScoreTable
  releases: ReleaseTable
  selections: SelectionTable
  qrels_versions: QrelsVersionTable
  rescores: RescoreTable
  judged_items: JudgedItemTable
  raters: RaterTable
  rater_invites: RaterInviteTable
  rating_samples: RatingSampleTable
  rating_assignments: RatingAssignmentTable
  ratings: RatingTable
  judge_judgments: JudgeJudgmentTable
  judge_claims: JudgeClaimTable
  judge_meta: JudgeMetaTable
  topic_lists: TopicListTable
  rate_hits: RateHitTable
  judging_pauses: JudgingPauseTable
  run_chunks: RunChunkTable
}
