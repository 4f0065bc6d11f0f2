/**
 * The scoring queue as the web process sees it: it enqueues work (a new submission, the
 * re-scoring jobs of a new qrels version); something takes and runs it. Two backends, picked
 * by the database:
 *
 * - **SQLite**: the in-process {@link ScoringSupervisor} (one forked scoring child; the rows
 *   are the queue).
 * - **Postgres**: pg-boss (see pg-queue.ts). This process only sends jobs, unless `workers` > 0:
 *   then it also takes that many at once, like a `trecscore worker`.
 *
 * The database rows stay the truth on both: `enqueue()` looks for every `queued` row (each
 * carries its request id), so a lost hint loses nothing.
 */
import type { Competition } from '../config/load.js'
import type { Db, DbLocation } from '../db/database.js'
import type { Logger } from '../ops/log.js'
import type { RunStores } from '../storage/run-stores.js'
import { ScoringSupervisor } from '../worker/supervisor.js'
import { Dispatcher, openQueue, QueueWorker } from './pg-queue.js'

/** The web process's handle on the scoring queue. */
export interface JobQueue {
  /** Work waits (a new submission, new re-scoring jobs): look at the `queued` rows soon. */
  enqueue(): void
  /** The process id of a scoring child of this process while there is one (tests kill it). */
  readonly workerPid: number | undefined
  /** Stop taking jobs (running ones are put back for the next start or another worker). */
  stop(): Promise<void>
}

/** Options of {@link openJobQueue}. */
export interface JobQueueOptions {
  readonly location: DbLocation
  readonly db: Db
  readonly competition: Competition
  readonly dataDir: string
  /** The run stores: a job's run is read from the one that holds it. */
  readonly runs: RunStores
  /** This process's own tmp folder: where runs from the database are written for a job. */
  readonly scratchDir: string
  readonly now: () => Date
  /** Postgres only: jobs this process scores at once (0: it only sends). @default 1 */
  readonly workers?: number
  /** Tests: a stub scoring child. */
  readonly workerModule?: string
  readonly onChange?: (submissionId: string) => void
  /** Job log lines, with the job's request id (default: plain lines on stderr; SQLite: none). */
  readonly log?: Logger
}

/** Open and start the queue of the database's backend. */
export async function openJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const common = {
    db: options.db,
    competition: options.competition,
    dataDir: options.dataDir,
    runs: options.runs,
    scratchDir: options.scratchDir,
    now: options.now,
    ...(options.workerModule ? { workerModule: options.workerModule } : {}),
    ...(options.onChange ? { onChange: options.onChange } : {}),
  }
  if (options.location.kind !== 'postgres') {
    const supervisor = new ScoringSupervisor({
      ...common,
      ...(options.log ? { log: options.log } : {}),
    })
    await supervisor.start()
    return {
      enqueue: () => supervisor.kick(),
      get workerPid() {
        return supervisor.workerPid
      },
      stop: () => supervisor.stop(),
    }
  }
  const boss = await openQueue(options.location.url, options.competition)
  const dispatcher = new Dispatcher(options.db, boss)
  const workers = options.workers ?? 1
  const log = options.log
  const worker =
    workers > 0
      ? new QueueWorker({
          ...common,
          boss,
          dbUrl: options.location.url,
          concurrency: workers,
          ...(log ? { logger: log } : {}),
        })
      : null
  await worker?.start()
  await dispatcher.kick(true)
  return {
    enqueue: () => void dispatcher.kick(),
    get workerPid() {
      return worker?.childPids[0]
    },
    async stop() {
      await worker?.stop()
      await boss.stop({ graceful: true, timeout: 10_000 })
    },
  }
}
