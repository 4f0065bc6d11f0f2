/**
 * Entry point of the scoring worker process (forked by the supervisor): scores each job it is
 * sent through `scoring.ts` and answers with the outcome or the reason it failed.
 */
import { formatIssue, InputError, isTrecscoreError } from '../../internal.js'
import { judgeSubmission } from '../judging/judge.js'
import { ScoringFailure, scoreSubmission } from '../scoring.js'
import type { JobMessage, ResultMessage } from './protocol.js'

function reasonOf(e: unknown, job: JobMessage): string {
  const hide = (s: string): string => s.split(job.file).join(job.name)
  if (e instanceof InputError) return hide(e.issues.slice(0, 5).map(formatIssue).join('; '))
  if (e instanceof ScoringFailure || isTrecscoreError(e)) return hide((e as Error).message)
  return 'internal scoring error'
}

process.on('message', (m: JobMessage) => {
  if (m.type !== 'job') return
  const scored = m.track.judging
    ? judgeSubmission(m.track, m.phase, m.file, m.dataDir)
    : scoreSubmission(m.track, m.phase, m.file, m.name)
  void scored.then(
    (outcome) =>
      send({ type: 'scored', submissionId: m.submissionId, attempt: m.attempt, outcome }),
    (e: unknown) => {
      if (!(e instanceof ScoringFailure) && !isTrecscoreError(e))
        process.stderr.write(
          `${JSON.stringify({ ts: new Date().toISOString(), level: 'error', msg: 'internal scoring error', requestId: m.requestId, job: m.submissionId, error: (e as Error).stack ?? String(e) })}\n`,
        )
      send({
        type: 'failed',
        submissionId: m.submissionId,
        attempt: m.attempt,
        reason: reasonOf(e, m),
      })
    },
  )
})

function send(r: ResultMessage): void {
  process.send?.(r)
}

process.on('disconnect', () => process.exit(0))
