/**
 * The scoring supervisor (in the web process): takes queued submissions one at a time, hands
 * each to a worker child process, and records what comes back.
 *
 * - A worker that dies (crash, SIGKILL) during a job: the job goes back to the queue and is
 *   retried, up to `worker.maxAttempts` attempts; then it fails ("the scoring worker died").
 * - A job past `worker.timeLimitSeconds`: the worker is killed and the job retried, up to
 *   `worker.maxAttempts` attempts; then it fails visibly ("time limit exceeded") and is not
 *   charged.
 * - A result is written only while the submission is still `scoring` under the same attempt,
 *   so each submission is scored exactly once per attempt that reaches the end.
 * - On start, submissions left `scoring` by a stopped server are queued again.
 * - Re-scoring jobs (a new qrels version, see qrels-versions.ts) run when no submission waits,
 *   under the same rules; one that fails leaves the submission and its earlier scores as they
 *   were (only the job is marked failed). Every score row records its qrels version.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Competition, findPhase, findTrack } from '../config/load.js'
import type { Db } from '../db/database.js'
import { scorerVersion } from '../judging/controls.js'
import type { Logger } from '../ops/log.js'
import { currentQrels } from '../qrels-versions.js'
import { diedReason, timeLimitReason } from '../queue/reasons.js'
import { type ScoreOutcome, TRECSCORE_VERSION } from '../scoring.js'
import { type OpenedRun, StoredRunDamaged } from '../storage/run-store.js'
import { RunStores } from '../storage/run-stores.js'
import type { JobMessage, ResultMessage } from './protocol.js'

/** Options of {@link ScoringSupervisor}. */
export interface SupervisorOptions {
  readonly db: Db
  readonly competition: Competition
  readonly dataDir: string
  /** Where the submissions' runs are (each read from the store that holds it). @default the directory store of `dataDir` */
  readonly runs?: RunStores
  /** This process's own tmp folder: runs kept in the database are written there for their job. @default `dataDir/tmp` */
  readonly scratchDir?: string
  /** The worker module to fork (tests swap in a stub). @default worker-main */
  readonly workerModule?: string
  readonly now?: () => Date
  /** Job log lines (`scoring`, `scored`, `scoring failed`, with the job's request id). */
  readonly log?: Logger
  /** Called after every state change (tests wait on it). */
  readonly onChange?: (submissionId: string) => void
}

interface Running {
  /** The job's key: the submission id, or the re-scoring job's id. */
  readonly submissionId: string
  readonly attempt: number
  readonly timer: NodeJS.Timeout
  /** A re-scoring job: the submission it re-scores. */
  readonly rescore: { readonly submissionId: string } | null
  /** The qrels version the job scores against. */
  readonly qrelsVersion: number
  /** The scorer version its score is written under (judged tracks: with the judge config). */
  readonly scorer: string
  /** The request that created the job. */
  readonly requestId?: string
  /** The run as the child reads it (released when the job ends, however it ends). */
  readonly run: OpenedRun
}

/** The scoring worker module (worker-main), as source under tsx or built. */
export function defaultWorker(): string {
  const here = fileURLToPath(import.meta.url)
  return join(here, '..', here.endsWith('.ts') ? 'worker-main.ts' : 'worker-main.js')
}

/**
 * Record a scored outcome as a new score version and mark the submission scored (a re-scoring
 * job: mark the job done instead). Written once per (submission, qrels version, scorer version
 * `scorer`: judged tracks add their judge config, see judging/controls.ts):
 * a second result for the same three (a job delivered twice) adds nothing and returns false.
 */
export async function recordScore(
  db: Db,
  submissionId: string,
  outcome: ScoreOutcome,
  now: Date,
  qrelsVersion = 1,
  rescoreId: string | null = null,
  scorer: string = TRECSCORE_VERSION,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const already = await trx
      .selectFrom('scores')
      .select('id')
      .where('submission_id', '=', submissionId)
      .where('qrels_version', '=', qrelsVersion)
      .where('scorer_version', '=', scorer)
      .executeTakeFirst()
    if (already === undefined) await insertScore()
    if (rescoreId !== null) {
      await trx
        .updateTable('rescores')
        .set({ state: 'done', reason: null })
        .where('id', '=', rescoreId)
        .execute()
      return already === undefined
    }
    await trx
      .updateTable('submissions')
      .set({ state: 'scored', reason: null, finished_at: now.toISOString() })
      .where('id', '=', submissionId)
      .execute()
    return already === undefined

    async function insertScore(): Promise<void> {
      const last = await trx
        .selectFrom('scores')
        .select((eb) => eb.fn.max('version').as('v'))
        .where('submission_id', '=', submissionId)
        .executeTakeFirst()
      await trx
        .insertInto('scores')
        .values({
          submission_id: submissionId,
          version: Number(last?.v ?? 0) + 1,
          primary_value: outcome.primary,
          columns: JSON.stringify(outcome.columns),
          per_query: JSON.stringify(outcome.perQuery),
          notes: JSON.stringify(outcome.notes),
          provenance: JSON.stringify(outcome.provenance),
          qrels_version: qrelsVersion,
          scorer_version: scorer,
          created_at: now.toISOString(),
        })
        .execute()
    }
  })
}

/** Supervises one scoring worker process. */
export class ScoringSupervisor {
  private child: ChildProcess | null = null
  private running: Running | null = null
  private stopped = false
  private busy = false
  private poll: NodeJS.Timeout | null = null
  private readonly now: () => Date
  private readonly runs: RunStores
  private readonly scratchDir: string

  constructor(private readonly options: SupervisorOptions) {
    this.now = options.now ?? (() => new Date())
    this.runs = options.runs ?? new RunStores(options.db, options.dataDir)
    this.scratchDir = options.scratchDir ?? join(options.dataDir, 'tmp')
  }

  /** Requeue interrupted jobs and start taking jobs. */
  async start(): Promise<void> {
    await this.options.db
      .updateTable('submissions')
      .set({ state: 'queued', started_at: null })
      .where('state', '=', 'scoring')
      .execute()
    await this.options.db
      .updateTable('rescores')
      .set({ state: 'queued' })
      .where('state', '=', 'scoring')
      .execute()
    this.poll = setInterval(() => this.kick(), 1000).unref()
    this.kick()
  }

  /** Look for work now (called after each new submission). */
  kick(): void {
    if (this.stopped || this.running || this.busy) return
    this.busy = true
    void this.next().finally(() => {
      this.busy = false
    })
  }

  /** Kill the worker and stop taking jobs (a running job stays `scoring` and is requeued on the next start). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.poll) clearInterval(this.poll)
    if (this.running) {
      clearTimeout(this.running.timer)
      void this.running.run.release().catch(() => undefined)
    }
    const child = this.child
    this.child = null
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill('SIGKILL')
      await exited
    }
  }

  /** The worker's process id (tests kill it). */
  get workerPid(): number | undefined {
    return this.child?.pid
  }

  private spawn(): ChildProcess {
    const module = this.options.workerModule ?? defaultWorker()
    const child = fork(module, [], {
      execArgv: module.endsWith('.ts') ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    })
    child.on('message', (m: ResultMessage) => void this.onResult(m))
    child.on('exit', () => void this.onExit(child))
    this.child = child
    return child
  }

  private async next(): Promise<void> {
    const { db, competition, dataDir } = this.options
    // A judged track and phase an organizer paused starts no job (judging/controls.ts).
    const queued = await db
      .selectFrom('submissions')
      .selectAll()
      .where('state', '=', 'queued')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('judging_pauses')
              .select('judging_pauses.track')
              .whereRef('judging_pauses.track', '=', 'submissions.track')
              .whereRef('judging_pauses.phase', '=', 'submissions.phase'),
          ),
        ),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
    const rescore = queued
      ? undefined
      : await db
          .selectFrom('rescores')
          .selectAll('rescores')
          .where('rescores.state', '=', 'queued')
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('judging_pauses')
                  .innerJoin('submissions', 'submissions.id', 'rescores.submission_id')
                  .select('judging_pauses.track')
                  .whereRef('judging_pauses.track', '=', 'submissions.track')
                  .whereRef('judging_pauses.phase', '=', 'submissions.phase'),
              ),
            ),
          )
          .orderBy('rescores.created_at')
          .orderBy('rescores.id')
          .limit(1)
          .executeTakeFirst()
    if (this.stopped || (!queued && !rescore)) return
    const job =
      queued ??
      (await db
        .selectFrom('submissions')
        .selectAll()
        .where('id', '=', rescore!.submission_id)
        .executeTakeFirstOrThrow())
    const key = rescore?.id ?? job.id
    const track = findTrack(competition, job.track)
    const phase = findPhase(competition, job.phase)
    if (!track || !phase) {
      await (rescore
        ? this.failRescore(key, 'the track or phase is no longer in the config')
        : this.fail(job.id, `track ${job.track} or phase ${job.phase} is no longer in the config`))
      return this.next()
    }
    const attempt = (rescore ?? job).attempts + 1
    if (rescore)
      await db
        .updateTable('rescores')
        .set({ state: 'scoring', attempts: attempt })
        .where('id', '=', key)
        .execute()
    else
      await db
        .updateTable('submissions')
        .set({ state: 'scoring', attempts: attempt, started_at: this.now().toISOString() })
        .where('id', '=', job.id)
        .execute()
    this.options.onChange?.(job.id)
    const qrels = await currentQrels(db, track, phase, dataDir, rescore?.qrels_version)
    let run: OpenedRun
    try {
      run = await this.runs.open(job, this.scratchDir)
    } catch (e) {
      // A damaged stored run fails its job visibly; anything else (the database) waits a turn.
      if (e instanceof StoredRunDamaged)
        await (rescore ? this.failRescore(key, e.message) : this.fail(job.id, e.message))
      else await this.requeueRow(key, rescore !== undefined)
      this.options.log?.info('scoring failed', {
        requestId: job.request_id ?? undefined,
        job: key,
        reason: (e as Error).message,
      })
      return
    }
    const requestId = (rescore ? rescore.request_id : job.request_id) ?? undefined
    const limitMs = competition.worker.timeLimitSeconds * 1000
    const timer = setTimeout(() => void this.onTimeout(key, attempt), limitMs)
    this.running = {
      submissionId: key,
      attempt,
      timer,
      rescore: rescore ? { submissionId: job.id } : null,
      qrelsVersion: qrels.version,
      scorer: scorerVersion(track),
      ...(requestId ? { requestId } : {}),
      run,
    }
    const child = this.child ?? this.spawn()
    const message: JobMessage = {
      type: 'job',
      submissionId: key,
      attempt,
      track: qrels.track,
      phase,
      file: run.path,
      name: job.original_name,
      dataDir,
      ...(requestId ? { requestId } : {}),
    }
    this.options.log?.info('scoring', {
      requestId,
      job: key,
      kind: rescore ? 'rescore' : 'score',
      attempt,
    })
    child.send(message)
  }

  private async fail(id: string, reason: string): Promise<void> {
    await this.options.db
      .updateTable('submissions')
      .set({ state: 'failed', reason, charged: 0, finished_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute()
    this.options.onChange?.(id)
  }

  /** A re-scoring job that failed: the submission and its scores stay as they were. */
  private async failRescore(id: string, reason: string): Promise<void> {
    await this.options.db
      .updateTable('rescores')
      .set({ state: 'failed', reason })
      .where('id', '=', id)
      .execute()
  }

  private failJob(r: Running, reason: string): Promise<void> {
    return r.rescore ? this.failRescore(r.submissionId, reason) : this.fail(r.submissionId, reason)
  }

  private current(id: string, attempt: number): boolean {
    return (
      this.running !== null && this.running.submissionId === id && this.running.attempt === attempt
    )
  }

  private done(): void {
    if (this.running) {
      clearTimeout(this.running.timer)
      void this.running.run.release().catch(() => undefined)
    }
    this.running = null
    this.kick()
  }

  private async onResult(m: ResultMessage): Promise<void> {
    const r = this.running
    if (!r || !this.current(m.submissionId, m.attempt)) return
    const row = r.rescore
      ? await this.options.db
          .selectFrom('rescores')
          .select(['state', 'attempts'])
          .where('id', '=', m.submissionId)
          .executeTakeFirst()
      : await this.options.db
          .selectFrom('submissions')
          .select(['state', 'attempts'])
          .where('id', '=', m.submissionId)
          .executeTakeFirst()
    if (row?.state === 'scoring' && row.attempts === m.attempt) {
      const submissionId = r.rescore?.submissionId ?? m.submissionId
      // What the job wrote beside the run (a judged track's judge-…/), kept before its score.
      await r.run.keepOutputs().catch((e: unknown) => {
        this.options.log?.error('keeping the job outputs failed', {
          requestId: r.requestId,
          job: m.submissionId,
          error: (e as Error).message,
        })
      })
      if (m.type === 'scored')
        await recordScore(
          this.options.db,
          submissionId,
          m.outcome,
          this.now(),
          r.qrelsVersion,
          r.rescore ? m.submissionId : null,
          r.scorer,
        )
      else await this.failJob(r, m.reason)
      this.options.log?.info(m.type === 'scored' ? 'scored' : 'scoring failed', {
        requestId: r.requestId,
        job: m.submissionId,
        attempt: m.attempt,
        ...(m.type === 'failed' ? { reason: m.reason } : {}),
      })
      this.options.onChange?.(submissionId)
    }
    this.done()
  }

  private async onTimeout(id: string, attempt: number): Promise<void> {
    const r = this.running
    if (!r || !this.current(id, attempt)) return
    const child = this.child
    this.child = null
    this.running = null
    void r.run.release().catch(() => undefined)
    child?.removeAllListeners('exit')
    child?.kill('SIGKILL')
    const w = this.options.competition.worker
    if (r.attempt >= w.maxAttempts)
      await this.failJob(r, timeLimitReason(w.timeLimitSeconds, r.attempt, w.maxAttempts))
    else await this.requeue(r)
    this.kick()
  }

  /** Put a claimed row back in the queue, its attempt not counted (its run could not be read now). */
  private async requeueRow(key: string, rescore: boolean): Promise<void> {
    if (rescore)
      await this.options.db
        .updateTable('rescores')
        .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1) }))
        .where('id', '=', key)
        .execute()
    else
      await this.options.db
        .updateTable('submissions')
        .set((eb) => ({ state: 'queued', started_at: null, attempts: eb('attempts', '-', 1) }))
        .where('id', '=', key)
        .execute()
  }

  /** Put a job whose attempt ended early (a death, the time limit) back in the queue. */
  private async requeue(r: Running): Promise<void> {
    if (r.rescore) {
      await this.options.db
        .updateTable('rescores')
        .set({ state: 'queued' })
        .where('id', '=', r.submissionId)
        .where('state', '=', 'scoring')
        .execute()
      return
    }
    await this.options.db
      .updateTable('submissions')
      .set({ state: 'queued', started_at: null })
      .where('id', '=', r.submissionId)
      .where('state', '=', 'scoring')
      .execute()
    this.options.onChange?.(r.submissionId)
  }

  private async onExit(child: ChildProcess): Promise<void> {
    if (this.child === child) this.child = null
    const r = this.running
    if (!r || this.stopped) return
    this.running = null
    clearTimeout(r.timer)
    void r.run.release().catch(() => undefined)
    if (r.attempt >= this.options.competition.worker.maxAttempts)
      await this.failJob(r, diedReason(r.attempt))
    else await this.requeue(r)
    this.kick()
  }
}
