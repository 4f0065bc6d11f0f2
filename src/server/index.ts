/**
 * The leaderboard server (`trecscore serve`): its entry points for the CLI and for tests.
 * Built only on the engine barrel (src/internal.ts); loaded on demand by `trecscore serve`, so
 * other commands never load Hono, Kysely, zod or SQLite.
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { TrecscoreError } from '../internal.js'
import { ensureBaselines, type RunningServer, startServer } from './app.js'
import { createOrganizer } from './auth/accounts.js'
import { findPhase, findTrack, loadCompetition } from './config/load.js'
import { describeLocation, openDatabase, parseDbLocation } from './db/database.js'
import { backup, restore } from './ops/backup.js'
import { type LogFormat, Logger } from './ops/log.js'
import { migrate } from './ops/migrate.js'
import { addQrelsVersion, QrelsVersionError } from './qrels-versions.js'
import { openQueue, QueueWorker } from './queue/pg-queue.js'
import { verifySnapshot } from './release-snapshot.js'
import { sweepOrphanChunks } from './storage/database-store.js'
import type { RunStoreKind } from './storage/run-store.js'
import { publishTopicList, publishTopicLists } from './topic-cache.js'
import { workerContext } from './worker/context.js'

export { createApp, type RunningServer, type StartOptions, startServer } from './app.js'
export {
  AccountError,
  acceptInvite,
  createApiToken,
  createInvite,
  createOrganizer,
  createTeam,
} from './auth/accounts.js'
export { type BoardCandidate, type BoardEntry, rankBoard, TIE_POLICY } from './board.js'
export {
  type Competition,
  ConfigError,
  loadCompetition,
  parseCompetition,
  type Track,
} from './config/load.js'
export { type CompetitionConfig, competitionSchema, configJsonSchema } from './config/schema.js'
export {
  listSnapshots,
  type SnapshotMeta,
  signingKey,
  verifySnapshot,
  writeDueSnapshots,
} from './release-snapshot.js'

/** `trecscore serve backup --data DIR [--db URL] --out FILE`: write a portable backup (see ops/backup.ts). */
export async function backupCommand(opts: {
  data: string
  db?: string
  out: string
}): Promise<void> {
  const where = parseDbLocation(opts.db, resolve(opts.data))
  const { rows, files } = await backup(where, resolve(opts.data), resolve(opts.out))
  process.stdout.write(
    `${opts.out}: backup of ${describeLocation(where)} and ${resolve(opts.data)}: ${rows} row(s), ${files} file(s)\n`,
  )
}

/** `trecscore serve restore --data DIR [--db URL] [--runs STORE] [--force] FILE`: restore a backup (empty targets unless --force). */
export async function restoreCommand(opts: {
  data: string
  db?: string
  file: string
  force: boolean
  /** The store the backup's runs go to (see ops/backup.ts). @default 'directory' */
  runs?: RunStoreKind
}): Promise<void> {
  const where = parseDbLocation(opts.db, resolve(opts.data))
  const { rows, files } = await restore(where, resolve(opts.data), resolve(opts.file), {
    force: opts.force,
    runs: opts.runs ?? 'directory',
  })
  process.stdout.write(
    `${opts.file}: restored into ${describeLocation(where)} and ${resolve(opts.data)} (runs in the ${opts.runs ?? 'directory'} store): ${rows} row(s), ${files} file(s), every sha256 checked\n`,
  )
}

/** `trecscore serve migrate --data DIR [--db URL]`: apply pending migrations, print each. */
export async function migrateCommand(opts: { data: string; db?: string }): Promise<void> {
  const where = parseDbLocation(opts.db, resolve(opts.data))
  const applied = await migrate(where)
  for (const name of applied) process.stdout.write(`applied ${name}\n`)
  process.stdout.write(
    `${describeLocation(where)}: ${applied.length === 0 ? 'up to date (nothing to apply)' : `${applied.length} migration(s) applied`}\n`,
  )
}

/** `trecscore serve --config FILE --data DIR [--db URL] [--port N] [--host H]`: start and print the URL. */
export async function serveCommand(opts: {
  config: string
  data: string
  db?: string
  port: number
  host: string
  secureCookies: boolean
  /** Behind a reverse proxy: client addresses from X-Forwarded-For, the scheme from X-Forwarded-Proto. */
  trustProxy?: boolean
  /** Postgres: scoring jobs taken in this process. @default 0 (web only: `trecscore worker` scores) */
  workers?: number
  /** Log lines on stderr: JSON objects (default) or text. */
  logFormat?: LogFormat
  /** Where new uploads are stored (see storage/run-store.ts). @default 'directory' */
  runs?: RunStoreKind
}): Promise<RunningServer> {
  const location = parseDbLocation(opts.db, resolve(opts.data))
  const where = describeLocation(location)
  // Postgres: a web process scores nothing unless asked (the workers hold the qrels); then it
  // neither needs nor reads the data folders of qrels and RETECO retrieval tracks.
  const workers = location.kind === 'postgres' ? (opts.workers ?? 0) : undefined
  const competition = loadCompetition(opts.config, workers === 0 ? 'web' : 'all')
  const server = await startServer({
    competition,
    dataDir: resolve(opts.data),
    ...(opts.db !== undefined ? { db: opts.db } : {}),
    port: opts.port,
    host: opts.host,
    secureCookies: opts.secureCookies,
    trustProxy: opts.trustProxy ?? false,
    ...(workers !== undefined ? { workers } : {}),
    ...(opts.runs !== undefined ? { runs: opts.runs } : {}),
    ops: {
      log: new Logger(opts.logFormat ?? 'json'),
      ...(process.env.TRECSCORE_METRICS_TOKEN
        ? { metricsToken: process.env.TRECSCORE_METRICS_TOKEN }
        : {}),
    },
  })
  process.stdout.write(
    `trecscore serve: ${competition.name} on ${server.url} (data ${resolve(opts.data)}; database ${where}; runs in the ${opts.runs ?? 'directory'} store; ${competition.tracks.length} track(s), ${competition.phases.length} phase(s)${workers === undefined ? '' : workers === 0 ? '; no scoring and no qrels here: run `trecscore worker`' : `; scoring ${workers} job(s) at a time here`})\n`,
  )
  const stop = (): void => {
    void server.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return server
}

/**
 * `trecscore worker --config FILE --data DIR --db postgres://… [--concurrency N]`: take scoring
 * jobs from the Postgres queue until SIGINT/SIGTERM (then running jobs go back to the queue).
 */
export async function workerCommand(opts: {
  config: string
  data: string
  db: string
  concurrency: number
  /** Job log lines on stderr: JSON objects (default) or text. */
  logFormat?: LogFormat
  /** Where the baselines it submits are stored (see storage/run-store.ts). @default 'directory' */
  runs?: RunStoreKind
}): Promise<{ stop(): Promise<void> }> {
  const location = parseDbLocation(opts.db, resolve(opts.data))
  if (location.kind !== 'postgres')
    throw new TrecscoreError(
      '--db must be postgres://… for a worker; with SQLite, `trecscore serve` scores in its own process',
      2,
    )
  const competition = loadCompetition(opts.config)
  const db = await openDatabase(location)
  const boss = await openQueue(location.url, competition)
  const ctx = workerContext(db, competition, resolve(opts.data), opts.runs ?? 'directory')
  await sweepOrphanChunks(db)
  const worker = new QueueWorker({
    db,
    boss,
    competition,
    dataDir: resolve(opts.data),
    runs: ctx.runs,
    scratchDir: ctx.tmpDir,
    dbUrl: location.url,
    concurrency: opts.concurrency,
    logger: new Logger(opts.logFormat ?? 'json'),
  })
  await worker.start()
  // What web processes without the data folders need from one that has them.
  const published = await publishTopicLists(db, competition, resolve(opts.data))
  await ensureBaselines(ctx)
  process.stderr.write(
    `trecscore worker: ${competition.name}: taking scoring jobs from ${describeLocation(location)} (${opts.concurrency} at a time; data ${resolve(opts.data)}; runs in the ${opts.runs ?? 'directory'} store; ${published} topic list(s) published)\n`,
  )
  let stopping: Promise<void> | null = null
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await worker.stop()
      await boss.stop({ graceful: true, timeout: 10_000 })
      await db.destroy()
      rmSync(ctx.tmpDir, { recursive: true, force: true })
    })()
    return stopping
  }
  const onSignal = (): void => {
    void stop().then(() => process.exit(0))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return { stop }
}

/** `trecscore serve admin create-organizer --data DIR [--db URL] --name NAME`: prints a generated password once. */
export async function createOrganizerCommand(opts: {
  data: string
  db?: string
  name: string
}): Promise<void> {
  const db = await openDatabase(parseDbLocation(opts.db, resolve(opts.data)))
  try {
    const password = randomBytes(18).toString('base64url')
    await createOrganizer(db, opts.name, password, new Date())
    process.stdout.write(`organizer ${opts.name} created; password (shown once): ${password}\n`)
  } finally {
    await db.destroy()
  }
}

/**
 * `trecscore serve admin add-qrels --config F --data DIR [--db URL] --track T --phase P --name ORG
 * [--note TEXT] FILE...`: add a qrels version as the organizer page does (see qrels-versions.ts),
 * publish its topic list, and print the version and how many re-scores were queued.
 */
export async function addQrelsCommand(opts: {
  config: string
  data: string
  db?: string
  track: string
  phase: string
  name: string
  note: string
  files: readonly string[]
}): Promise<void> {
  const competition = loadCompetition(opts.config)
  const track = findTrack(competition, opts.track)
  const phase = findPhase(competition, opts.phase)
  if (!track || !phase)
    throw new TrecscoreError(
      `no track '${opts.track}' with phase '${opts.phase}' in ${opts.config}; tracks: ${competition.tracks.map((t) => t.id).join(', ')}; phases: ${competition.phases.map((p) => p.id).join(', ')}`,
      2,
    )
  const files = opts.files.map((f) => {
    try {
      return { name: basename(f), bytes: new Uint8Array(readFileSync(f)) }
    } catch (e) {
      throw new TrecscoreError(`${f}: cannot read (${(e as NodeJS.ErrnoException).code ?? e})`, 2)
    }
  })
  const dataDir = resolve(opts.data)
  const db = await openDatabase(parseDbLocation(opts.db, dataDir))
  try {
    const user = await db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('name', '=', opts.name)
      .executeTakeFirst()
    if (user?.role !== 'organizer')
      throw new TrecscoreError(`--name ${opts.name}: no organizer of that name`, 2)
    const ctx = workerContext(db, competition, dataDir)
    let out: { version: number; rescoring: number }
    try {
      out = await addQrelsVersion(ctx, {
        track,
        phase,
        files,
        note: opts.note,
        userId: user.id,
      })
    } catch (e) {
      if (e instanceof QrelsVersionError) throw new TrecscoreError(e.message, 2)
      throw e
    }
    await publishTopicList(db, track, phase, dataDir)
    process.stdout.write(
      `qrels version ${out.version} of ${track.id} / ${phase.id} added; ${out.rescoring} submission(s) queued for re-scoring\n`,
    )
  } finally {
    await db.destroy()
  }
}

/** `trecscore serve admin verify-release DIR [--public-key FILE]`: 0 valid, 2 with every problem listed on stderr. */
export async function verifyReleaseCommand(opts: {
  dir: string
  publicKey?: string
}): Promise<number> {
  let pem: string | undefined
  if (opts.publicKey !== undefined) {
    try {
      pem = readFileSync(opts.publicKey, 'utf8')
    } catch (e) {
      process.stderr.write(
        `trecscore serve admin verify-release: ${opts.publicKey}: cannot read the public key (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`,
      )
      return 2
    }
  }
  const problems = verifySnapshot(resolve(opts.dir), pem)
  if (problems.length === 0) {
    process.stdout.write(`${opts.dir}: valid (signature and every file's sha256 match)\n`)
    return 0
  }
  for (const p of problems) process.stderr.write(`${opts.dir}: ${p}\n`)
  process.stderr.write(
    `${opts.dir}: NOT valid (${problems.length} problem${problems.length === 1 ? '' : 's'})\n`,
  )
  return 2
}
