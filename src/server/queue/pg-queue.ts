/**
 * Scoring on Postgres through a pg-boss 10 queue: web processes only send jobs; any number of
 * workers (`trecscore worker`, or `serve --workers N`), on any machine that reaches the database,
 * take them. The database rows stay the truth (a submission or re-scoring job is `queued`,
 * `scoring`, then scored/done or failed); the queue delivers, retries and expires:
 *
 * - **One job per row.** The queue's policy is `stately` with the row's id as singleton key, so at
 *   most one job per row waits and one runs. Every worker re-sends jobs for `queued` rows every
 *   few seconds (a web process that died between storing an upload and sending its job loses
 *   nothing).
 * - **Claim, then score.** A worker claims the row in a transaction (`scoring`, one more
 *   attempt); a row that is finished already (a job delivered twice) is left alone.
 *   Per-team concurrency: when the team already has `worker.perTeamConcurrency` rows `scoring`,
 *   the job is put back (`startAfter`) without using an attempt.
 * - **Retries with backoff.** A child that dies or passes `worker.timeLimitSeconds` is killed and
 *   the job retried after `worker.retryDelaySeconds` (doubling with `worker.retryBackoff`), up to
 *   `worker.maxAttempts` attempts; then the row fails visibly, not charged. A worker process
 *   that dies (SIGKILL, a lost machine) holds its job until the job expires (time limit +
 *   `worker.expireGraceSeconds`); pg-boss then hands it to another worker.
 * - **Exactly once.** A score is written once per (submission, qrels version, scorer version)
 *   (see recordScore); a result whose claim was taken over is dropped.
 * - **Dead letters.** A job pg-boss gives up on goes to the dead-letter queue; a worker takes it
 *   and fails its row with the reason, so organizers see it (the organizer page).
 * - **Priorities.** Re-scoring jobs (an organizer's new qrels version) go before team uploads.
 */
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type PgBoss from 'pg-boss'
import { type Competition, findPhase, findTrack } from '../config/load.js'
import { type Db, loadFailure } from '../db/database.js'
import { scorerVersion } from '../judging/controls.js'
import type { Logger } from '../ops/log.js'
import { currentQrels } from '../qrels-versions.js'
import { type OpenedRun, StoredRunDamaged } from '../storage/run-store.js'
import { RunStores } from '../storage/run-stores.js'
import { defaultWorker, recordScore } from '../worker/supervisor.js'
import { bossDatabase } from './boss-db.js'
import { ChildSlot } from './child-slot.js'
import type { ScoreJob } from './job.js'
import { diedReason, timeLimitReason } from './reasons.js'

/** The scoring queue and its dead-letter queue. */
export const SCORE_QUEUE = 'trecscore-score'
export const DEAD_QUEUE = 'trecscore-score-dead'

export type { ScoreJob } from './job.js'

/** Re-scoring jobs go first. */
const PRIORITY: Readonly<Record<ScoreJob['kind'], number>> = { rescore: 10, score: 0 }

async function loadBoss(): Promise<typeof PgBoss> {
  try {
    return ((await import('pg-boss')) as unknown as { default: typeof PgBoss }).default
  } catch (e) {
    throw loadFailure(
      'pg-boss',
      '10.4.2',
      'the Postgres job queue (trecscore serve, trecscore worker)',
      e,
    )
  }
}

/** Open pg-boss on the database (installing its schema `pgboss` once) and create the queues. */
export async function openQueue(url: string, competition: Competition): Promise<PgBoss> {
  const Boss = await loadBoss()
  const w = competition.worker
  // Our own pool under pg-boss (see boss-db.ts: what a lost database does), ended with it.
  const db = await bossDatabase(url, 4)
  const boss = new Boss({ db, maintenanceIntervalSeconds: w.maintenanceIntervalSeconds })
  boss.on('error', (e: Error) => {
    process.stderr.write(`trecscore queue: ${e.message}\n`)
  })
  boss.once('stopped', () => void db.close().catch(() => undefined))
  try {
    await boss.start()
  } catch (e) {
    await db.close().catch(() => undefined)
    throw e
  }
  const options = {
    policy: 'stately' as const,
    deadLetter: DEAD_QUEUE,
    // One more than the attempts: the claim after the last death fails the row itself.
    retryLimit: w.maxAttempts,
    retryDelay: w.retryDelaySeconds,
    retryBackoff: w.retryBackoff,
    expireInSeconds: Math.max(1, Math.ceil(w.timeLimitSeconds + w.expireGraceSeconds)),
  }
  await boss.createQueue(DEAD_QUEUE, { name: DEAD_QUEUE, policy: 'standard' })
  await boss.createQueue(SCORE_QUEUE, { name: SCORE_QUEUE, ...options })
  await boss.updateQueue(SCORE_QUEUE, { name: SCORE_QUEUE, ...options })
  return boss
}

/** Jobs sent in one insert by a dispatcher pass. */
const SEND_BATCH = 500

/** A job as one row of a batch insert: what {@link sendJob} sends. */
function jobInsert(job: ScoreJob): PgBoss.JobInsert {
  return {
    name: SCORE_QUEUE,
    data: job as object,
    singletonKey: job.key,
    priority: PRIORITY[job.kind],
  }
}

/** Send one job (a no-op when one already waits for the row). */
export function sendJob(
  boss: PgBoss,
  job: ScoreJob,
  startAfterSeconds?: number,
): Promise<string | null> {
  return boss.send(SCORE_QUEUE, job as object, {
    singletonKey: job.key,
    priority: PRIORITY[job.kind],
    ...(startAfterSeconds !== undefined ? { startAfter: startAfterSeconds } : {}),
  })
}

/**
 * Sends the jobs of `queued` rows: on a kick (after an upload or a new qrels version) and
 * periodically. Rows sent in the last 30 s are skipped by kicks (a periodic pass sends all).
 */
export class Dispatcher {
  private readonly sent = new Map<string, number>()
  private running: Promise<void> | null = null
  private again = false

  constructor(
    private readonly db: Db,
    private readonly boss: PgBoss,
  ) {}

  /** Send what waits, soon (coalesced: one pass at a time, one more if kicked meanwhile). */
  kick(all = false): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = this.pass(all)
      .catch((e: unknown) => {
        process.stderr.write(
          `trecscore queue: sending jobs failed: ${e instanceof Error ? e.message : String(e)}\n`,
        )
      })
      .finally(() => {
        this.running = null
        if (this.again) {
          this.again = false
          void this.kick()
        }
      })
    return this.running
  }

  private async pass(all: boolean): Promise<void> {
    const now = Date.now()
    for (const [k, t] of this.sent) if (t < now - 30_000) this.sent.delete(k)
    const subs = await this.db
      .selectFrom('submissions')
      .select(['id', 'request_id'])
      .where('state', '=', 'queued')
      .orderBy('created_at')
      .execute()
    const rescores = await this.db
      .selectFrom('rescores')
      .select(['id', 'request_id'])
      .where('state', '=', 'queued')
      .orderBy('created_at')
      .execute()
    const jobs: ScoreJob[] = [
      ...rescores.map((r) => ({
        kind: 'rescore' as const,
        key: r.id,
        ...(r.request_id ? { requestId: r.request_id } : {}),
      })),
      ...subs.map((s) => ({
        kind: 'score' as const,
        key: s.id,
        ...(s.request_id ? { requestId: s.request_id } : {}),
      })),
    ]
    // One insert per batch (a no-op for rows whose job already waits: the queue is stately),
    // not a round trip per row: a periodic pass over a thousand queued rows on every worker
    // would otherwise keep the database and the workers' event loops busy re-sending.
    const due = jobs.filter((job) => all || !this.sent.has(job.key))
    for (let i = 0; i < due.length; i += SEND_BATCH) {
      const batch = due.slice(i, i + SEND_BATCH)
      await this.boss.insert(batch.map(jobInsert))
      for (const job of batch) this.sent.set(job.key, now)
    }
  }
}

/** Options of {@link QueueWorker}. */
export interface QueueWorkerOptions {
  readonly db: Db
  readonly boss: PgBoss
  readonly competition: Competition
  readonly dataDir: string
  /**
   * Where the submissions' runs are (each read from the store that holds it: with the
   * database store, this machine's `dataDir` needs no `runs/`). @default the directory store of `dataDir`
   */
  readonly runs?: RunStores
  /** This process's own tmp folder: runs kept in the database are written there for their job. @default `dataDir/tmp` */
  readonly scratchDir?: string
  /** The database's URL: judged jobs' children keep the judgment cache there (pg-judge-cache.ts). */
  readonly dbUrl: string
  /** Jobs scored at once by this process (one child process each). @default 1 */
  readonly concurrency?: number
  /** The worker module to fork (tests swap in a stub). @default worker-main */
  readonly workerModule?: string
  readonly now?: () => Date
  readonly onChange?: (submissionId: string) => void
  /** A line for the log (tests; default: stderr). */
  readonly log?: (line: string) => void
  /**
   * Structured job log lines instead (`trecscore worker`, `serve --workers N`): the message,
   * with `worker`, `job` (the row's id), `kind` and the job's `requestId` as fields (the names
   * the SQLite supervisor's lines use).
   */
  readonly logger?: Logger
}

type Claim =
  | { readonly type: 'gone' }
  | { readonly type: 'defer' }
  /** A judged track and phase an organizer paused: the dispatcher sends the job again later. */
  | { readonly type: 'paused' }
  | { readonly type: 'exhausted'; readonly attempts: number }
  | {
      readonly type: 'claimed'
      readonly attempt: number
      readonly submission: {
        readonly id: string
        readonly track: string
        readonly phase: string
        readonly file: string
        readonly original_name: string
        readonly run_sha256: string
      }
      readonly qrelsVersion: number | undefined
    }

/** Takes scoring jobs from the queue and runs each in a child process. */
export class QueueWorker {
  private readonly slots: ChildSlot[] = []
  private readonly free: ChildSlot[] = []
  private stopping = false
  private timer: NodeJS.Timeout | null = null
  private readonly dispatcher: Dispatcher
  private readonly now: () => Date
  private readonly id = randomUUID().slice(0, 8)
  private readonly runs: RunStores
  private readonly scratchDir: string

  constructor(private readonly options: QueueWorkerOptions) {
    this.now = options.now ?? (() => new Date())
    this.runs = options.runs ?? new RunStores(options.db, options.dataDir)
    this.scratchDir = options.scratchDir ?? join(options.dataDir, 'tmp')
    this.dispatcher = new Dispatcher(options.db, options.boss)
    const n = Math.max(1, options.concurrency ?? 1)
    for (let i = 0; i < n; i++) {
      const slot = new ChildSlot(options.workerModule ?? defaultWorker())
      this.slots.push(slot)
      this.free.push(slot)
    }
  }

  /** The process ids of the busy children (tests kill them). */
  get childPids(): number[] {
    return this.slots.flatMap((s) => (s.pid === undefined ? [] : [s.pid]))
  }

  /** Start taking jobs (and re-sending lost ones every 5 s). */
  async start(): Promise<void> {
    const { boss } = this.options
    const work = { batchSize: 1, pollingIntervalSeconds: 0.5, includeMetadata: true as const }
    for (let i = 0; i < this.slots.length; i++)
      await boss.work<ScoreJob>(SCORE_QUEUE, work, async ([job]) => {
        if (job) await this.handle(job)
      })
    await boss.work<ScoreJob>(DEAD_QUEUE, work, async ([job]) => {
      if (job) await this.deadLetter(job.data)
    })
    await this.dispatcher.kick(true)
    this.timer = setInterval(() => void this.dispatcher.kick(true), 5_000)
    this.timer.unref()
  }

  /** Stop: running jobs are put back (`queued`) for the next worker; children are killed. */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.timer) clearInterval(this.timer)
    await Promise.all(this.slots.map((s) => s.kill()))
    await this.options.boss.offWork(SCORE_QUEUE).catch(() => undefined)
    await this.options.boss.offWork(DEAD_QUEUE).catch(() => undefined)
  }

  private log(job: ScoreJob, what: string): void {
    const { logger } = this.options
    if (logger) {
      logger.info(what, { worker: this.id, job: job.key, kind: job.kind, requestId: job.requestId })
      return
    }
    const line = `trecscore worker ${this.id}: ${job.kind} ${job.key}${job.requestId ? ` (request ${job.requestId})` : ''}: ${what}`
    if (this.options.log) this.options.log(line)
    else process.stderr.write(`${line}\n`)
  }

  private async handle(job: PgBoss.JobWithMetadata<ScoreJob>): Promise<void> {
    const data = job.data
    const claim = await this.claim(data)
    if (claim.type === 'gone')
      return this.log(data, 'already finished (a second delivery): nothing to do')
    if (claim.type === 'paused') return
    if (claim.type === 'defer') {
      await sendJob(this.options.boss, data, 2)
      return
    }
    if (claim.type === 'exhausted') {
      await this.fail(data, diedReason(claim.attempts))
      return
    }
    const slot = this.free.pop()
    if (!slot) throw new Error('no free scoring slot')
    const w = this.options.competition.worker
    const { dataDir, competition, db } = this.options
    let run: OpenedRun | null = null
    try {
      const track = findTrack(competition, claim.submission.track)
      const phase = findPhase(competition, claim.submission.phase)
      if (!track || !phase) {
        await this.fail(
          data,
          `track ${claim.submission.track} or phase ${claim.submission.phase} is no longer in the config`,
        )
        return
      }
      const qrels = await currentQrels(db, track, phase, dataDir, claim.qrelsVersion)
      try {
        run = await this.runs.open(claim.submission, this.scratchDir)
      } catch (e) {
        // A damaged stored run fails its job visibly; anything else (the database) is retried.
        if (e instanceof StoredRunDamaged) {
          await this.fail(data, e.message)
          return
        }
        throw e
      }
      this.log(data, `attempt ${claim.attempt}: scoring`)
      this.options.onChange?.(claim.submission.id)
      const outcome = await slot.run(
        {
          type: 'job',
          submissionId: data.key,
          attempt: claim.attempt,
          track: qrels.track,
          phase,
          file: run.path,
          name: claim.submission.original_name,
          dataDir,
          db: this.options.dbUrl,
        },
        w.timeLimitSeconds * 1000,
      )
      if (this.stopping) {
        await this.requeue(data, claim.attempt)
        return
      }
      if (!(await this.current(data, claim.attempt))) {
        this.log(data, `attempt ${claim.attempt}: taken over by another worker; result dropped`)
        return
      }
      // What the job wrote beside the run (a judged track's judge-…/), kept before its score.
      if (outcome.type === 'scored' || outcome.type === 'failed')
        await run.keepOutputs().catch((e: unknown) => {
          this.log(data, `keeping the job outputs failed: ${(e as Error).message}`)
        })
      if (outcome.type === 'scored') {
        const written = await recordScore(
          db,
          claim.submission.id,
          outcome.outcome,
          this.now(),
          qrels.version,
          data.kind === 'rescore' ? data.key : null,
          scorerVersion(track),
        )
        this.log(data, written ? 'scored' : 'scored again: the score was written already')
        this.options.onChange?.(claim.submission.id)
      } else if (outcome.type === 'failed') await this.fail(data, outcome.reason)
      else {
        const why =
          outcome.type === 'timeout'
            ? timeLimitReason(w.timeLimitSeconds, claim.attempt, w.maxAttempts)
            : diedReason(claim.attempt)
        if (claim.attempt >= w.maxAttempts) await this.fail(data, why)
        else {
          this.log(
            data,
            `attempt ${claim.attempt}: ${outcome.type === 'timeout' ? 'time limit exceeded' : 'the scoring child died'}; retried`,
          )
          throw new Error(why)
        }
      }
    } finally {
      await run?.release().catch(() => undefined)
      this.free.push(slot)
    }
  }

  /** Claim the row of a job, in one transaction. */
  private async claim(job: ScoreJob): Promise<Claim> {
    const { db, competition } = this.options
    const w = competition.worker
    return db.transaction().execute(async (trx): Promise<Claim> => {
      const rescore =
        job.kind === 'rescore'
          ? await trx
              .selectFrom('rescores')
              .selectAll()
              .where('id', '=', job.key)
              .executeTakeFirst()
          : undefined
      if (job.kind === 'rescore' && rescore === undefined) return { type: 'gone' }
      const sub = await trx
        .selectFrom('submissions')
        .selectAll()
        .where('id', '=', rescore?.submission_id ?? job.key)
        .executeTakeFirst()
      if (!sub) return { type: 'gone' }
      const row = rescore ?? sub
      if (row.state !== 'queued' && row.state !== 'scoring') return { type: 'gone' }
      if (row.attempts >= w.maxAttempts) return { type: 'exhausted', attempts: row.attempts }
      const busy = await trx
        .selectFrom('submissions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('team_id', '=', sub.team_id)
        .where('state', '=', 'scoring')
        .where('id', '!=', sub.id)
        .executeTakeFirst()
      const paused = await trx
        .selectFrom('judging_pauses')
        .select('track')
        .where('track', '=', sub.track)
        .where('phase', '=', sub.phase)
        .executeTakeFirst()
      if (paused) return { type: 'paused' }
      if (Number(busy?.n ?? 0) >= w.perTeamConcurrency) return { type: 'defer' }
      const attempt = row.attempts + 1
      if (rescore)
        await trx
          .updateTable('rescores')
          .set({ state: 'scoring', attempts: attempt })
          .where('id', '=', rescore.id)
          .execute()
      else
        await trx
          .updateTable('submissions')
          .set({ state: 'scoring', attempts: attempt, started_at: this.now().toISOString() })
          .where('id', '=', sub.id)
          .execute()
      return {
        type: 'claimed',
        attempt,
        submission: sub,
        qrelsVersion: rescore?.qrels_version,
      }
    })
  }

  /** The state and attempts of a job's row. */
  private async row(job: ScoreJob): Promise<{ state: string; attempts: number } | undefined> {
    const { db } = this.options
    return job.kind === 'rescore'
      ? db
          .selectFrom('rescores')
          .select(['state', 'attempts'])
          .where('id', '=', job.key)
          .executeTakeFirst()
      : db
          .selectFrom('submissions')
          .select(['state', 'attempts'])
          .where('id', '=', job.key)
          .executeTakeFirst()
  }

  /** Whether the row is still `scoring` under this attempt (not taken over after an expiry). */
  private async current(job: ScoreJob, attempt: number): Promise<boolean> {
    const row = await this.row(job)
    return row?.state === 'scoring' && row.attempts === attempt
  }

  /** Fail the row (a re-scoring job: the submission and its scores stay as they were). */
  private async fail(job: ScoreJob, reason: string): Promise<void> {
    const { db } = this.options
    if (job.kind === 'rescore')
      await db
        .updateTable('rescores')
        .set({ state: 'failed', reason })
        .where('id', '=', job.key)
        .where('state', 'in', ['queued', 'scoring'])
        .execute()
    else {
      await db
        .updateTable('submissions')
        .set({ state: 'failed', reason, charged: 0, finished_at: this.now().toISOString() })
        .where('id', '=', job.key)
        .where('state', 'in', ['queued', 'scoring'])
        .execute()
      this.options.onChange?.(job.key)
    }
    this.log(job, `failed: ${reason}`)
  }

  /** Put an interrupted job's row back for the next worker (this process is stopping). */
  private async requeue(job: ScoreJob, attempt: number): Promise<void> {
    const { db } = this.options
    if (job.kind === 'rescore')
      await db
        .updateTable('rescores')
        .set({ state: 'queued' })
        .where('id', '=', job.key)
        .where('state', '=', 'scoring')
        .where('attempts', '=', attempt)
        .execute()
    else
      await db
        .updateTable('submissions')
        .set({ state: 'queued', started_at: null })
        .where('id', '=', job.key)
        .where('state', '=', 'scoring')
        .where('attempts', '=', attempt)
        .execute()
    this.log(job, `attempt ${attempt}: interrupted (the worker is stopping); queued again`)
  }

  /** pg-boss gave up on a job (every retry used): fail its row visibly if it is still open. */
  private async deadLetter(job: ScoreJob): Promise<void> {
    const row = await this.row(job)
    if (row && (row.state === 'queued' || row.state === 'scoring'))
      await this.fail(
        job,
        `the queue gave up after ${row.attempts} attempt(s) (the worker died or the job expired); not charged`,
      )
  }
}
