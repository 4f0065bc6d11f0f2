/**
 * Messages between the web process (the supervisor) and the scoring worker (a child process).
 * The worker never writes to the server's tables: it scores one job and answers; the supervisor
 * writes the result, so a result is recorded at most once per attempt. The one exception is the
 * judgment cache on Postgres (`judge_*` tables, see judging/pg-judge-cache.ts): a judged job's
 * worker opens its own connection for it from `db`.
 */
import type { Track } from '../config/load.js'
import type { PhaseConfig } from '../config/schema.js'
import type { ScoreOutcome } from '../scoring.js'

/** A job sent to the worker. */
export interface JobMessage {
  readonly type: 'job'
  /** The job's key, echoed in the answer: the submission id, or a re-scoring job's id. */
  readonly submissionId: string
  readonly attempt: number
  readonly track: Track
  readonly phase: PhaseConfig
  /** Absolute path of the stored run. */
  readonly file: string
  /** The name the team gave the file (used in messages instead of the server path). */
  readonly name: string
  /** The server's data folder (on SQLite, judged tracks keep their judgment cache there). */
  readonly dataDir: string
  /** Postgres: the database URL, where judged tracks keep their judgment cache. Absent on SQLite. */
  readonly db?: string
  /** The request that created the job (its log lines carry it). */
  readonly requestId?: string
}

/** The worker's answer to a job. */
export type ResultMessage =
  | {
      readonly type: 'scored'
      readonly submissionId: string
      readonly attempt: number
      readonly outcome: ScoreOutcome
    }
  | {
      readonly type: 'failed'
      readonly submissionId: string
      readonly attempt: number
      readonly reason: string
    }
