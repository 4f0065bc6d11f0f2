/**
 * How a scoring job that did not finish is worded, the same on both backends (the SQLite
 * supervisor and the Postgres queue), on the submission page and the organizer's page.
 */

/** The job ran past `worker.timeLimitSeconds` on its last allowed attempt. */
export function timeLimitReason(
  limitSeconds: number,
  attempt: number,
  maxAttempts: number,
): string {
  return maxAttempts === 1
    ? `time limit exceeded (${limitSeconds} s); not charged`
    : `time limit exceeded (${limitSeconds} s, attempt ${attempt} of ${maxAttempts}); not charged`
}

/** The worker died (crash, SIGKILL, a lost machine) on every allowed attempt. */
export function diedReason(attempts: number): string {
  return `the scoring worker died ${attempts} times on this run; not charged`
}
