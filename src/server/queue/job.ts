/**
 * A scoring job as the web process hands it to the queue (and pg-boss stores it): which row
 * to score, never a path (the row names its stored run relative to the data folder or the
 * storage, so a job means the same on every machine). `kind` leaves room for other job kinds.
 */
export interface ScoreJob {
  readonly kind: 'score' | 'rescore'
  /** The submission id (`score`) or the re-scoring job's id (`rescore`). */
  readonly key: string
  /** The request that created it, carried into the job's log lines. */
  readonly requestId?: string
}
