/**
 * Entry point of the scoring worker process (forked by the supervisor): scores each job it is
 * sent through `scoring.ts` and answers with the outcome or the reason it failed. On Postgres a
 * judged job's judgment cache is the database's (one small connection pool per process, opened
 * on first use, without migrating: the server did).
 */
import { formatIssue, InputError, isTrecscoreError } from '../../internal.js'
import { type Db, openDatabase } from '../db/database.js'
import { judgeSubmission } from '../judging/judge.js'
import { ScoringFailure, scoreSubmission } from '../scoring.js'
import type { JobMessage, ResultMessage } from './protocol.js'

function reasonOf(e: unknown, job: JobMessage): string {
  const hide = (s: string): string => s.split(job.file).join(job.name)
  if (e instanceof InputError) return hide(e.issues.slice(0, 5).map(formatIssue).join('; '))
  if (e instanceof ScoringFailure || isTrecscoreError(e)) return hide((e as Error).message)
  return 'internal scoring error'
}

let judgeDb: { url: string; db: Promise<Db> } | null = null

/** The judgment cache of a judged job: the database's on Postgres, else the data folder's files. */
async function judge(m: JobMessage) {
  if (!m.db) return judgeSubmission(m.track, m.phase, m.file, m.dataDir)
  if (judgeDb?.url !== m.db) {
    const old = judgeDb
    judgeDb = {
      url: m.db,
      db: openDatabase({ kind: 'postgres', url: m.db }, { migrate: false, maxConnections: 4 }),
    }
    if (old) void old.db.then((d) => d.destroy()).catch(() => undefined)
  }
  const open = judgeDb
  let db: Db
  try {
    db = await open.db
  } catch (e) {
    if (judgeDb === open) judgeDb = null
    throw e
  }
  return judgeSubmission(m.track, m.phase, m.file, { kind: 'postgres', db })
}

process.on('message', (m: JobMessage) => {
  if (m.type !== 'job') return
  const scored = m.track.judging ? judge(m) : scoreSubmission(m.track, m.phase, m.file, m.name)
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
