/**
 * The tables of human spot validation (see migration.ts): judged items (what sampling draws
 * from), raters, rater invites, samples, assignments and ratings.
 */

/**
 * One judged (turn, submission) item: what the judge saw and what it said. Filled by judging
 * on the platform (and directly by tests); sampling draws from these rows.
 */
export interface JudgedItemTable {
  id: string
  track: string
  phase: string
  submission_id: string
  /** The turn id as the submission gives it (e.g. `2_turn_3`). */
  turn_id: string
  conversation_id: string
  domain: string | null
  turn_depth: number | null
  /** JSON: the item as the judge items JSONL writes it (history, question, answer, passages, reference). */
  item: string
  /** JSON: the judge's judgments of this item, one object per dimension, in the judgments JSONL format. */
  judgments: string
  /** The judge config hash the judgments were made under. */
  config_hash: string
  created_at: string
}

/** A rater account: a user with role `member`, no team, and this row. */
export interface RaterTable {
  user_id: string
  created_by: string
  created_at: string
}

/** A single-use link that creates a rater account. */
export interface RaterInviteTable {
  id: string
  token_hash: string
  created_by: string
  created_at: string
  used_at: string | null
}

/** A drawn sample: the design and the frozen judge config whose rubric raters see. */
export interface RatingSampleTable {
  id: string
  track: string
  phase: string
  seed: number
  size: number
  /** Share of the sample assigned to two raters. */
  double_share: number
  config_hash: string
  /** The judge config file's JSON value, frozen at the draw. */
  config_json: string
  created_by: string
  created_at: string
}

/** One item given to one rater. */
export interface RatingAssignmentTable {
  id: string
  sample_id: string
  item_id: string
  rater_id: string
  /** The rater's order (0, 1, …). */
  position: number
  /** 1 or 2: which of the item's raters (2 only on the double-annotated share). */
  slot: number
  skip_reason: string | null
  updated_at: string | null
}

/** One 1–5 choice of a rater for one dimension of an assignment. */
export interface RatingTable {
  assignment_id: string
  dimension: string
  score: number
  updated_at: string
}
