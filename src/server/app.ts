/**
 * The leaderboard server as a Hono app, and the server lifecycle: open the database, clear
 * half-finished uploads, make sure the baseline runs are submitted, start the scoring
 * supervisor, listen.
 */
import { createReadStream, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createTeam } from './auth/accounts.js'
import { RateLimiter } from './auth/rate-limit.js'
import type { Competition } from './config/load.js'
import type { ServerContext } from './context.js'
import { type Db, openDatabase, parseDbLocation } from './db/database.js'
import { healthz } from './ops/health.js'
import { Logger, requestLog } from './ops/log.js'
import { metrics } from './ops/metrics.js'
import { type JobQueue, openJobQueue } from './queue/job-queue.js'
import { confineRaters, raterRoutes } from './raters/routes.js'
import { writeDueSnapshots } from './release-snapshot.js'
import { apiRoutes } from './routes/api.js'
import { htmlRoutes } from './routes/html.js'
import {
  clientIp,
  clientView,
  csrfCheck,
  type Env,
  identify,
  securityHeaders,
} from './routes/middleware.js'
import { sweepOrphanChunks } from './storage/database-store.js'
import type { RunStoreKind } from './storage/run-store.js'
import { RunStores } from './storage/run-stores.js'
import { processTmpDir } from './storage/tmp.js'
import { submitRun } from './submissions.js'
import { TopicCache } from './topic-cache.js'

/** The name of the team that holds the organizers' baseline runs. */
export const BASELINE_TEAM = 'Organizers (baselines)'

/** How long a request (an upload's body included) may take to arrive: one hour. */
export const UPLOAD_ARRIVAL_MS = 3_600_000

/** Routes that take a run upload (their size limits are the competition's upload limits); every other body is limited to 64 KiB. */
const UPLOAD_PATHS = new Set(['/team/submissions', '/api/v1/submissions', '/org/qrels'])

/** Operations options of {@link createApp}: where logs go, and who may read /metrics. */
export interface OpsOptions {
  /** @default none: an in-process server logs nothing unless given a logger (`trecscore serve` gives one) */
  readonly log?: Logger
  /** A bearer token that opens /metrics beyond loopback (`TRECSCORE_METRICS_TOKEN`). */
  readonly metricsToken?: string
}

/** The Hono app over a context (in-process tests call `app.request`). */
export function createApp(ctx: ServerContext, ops: OpsOptions = {}): Hono<Env> {
  const log = ops.log ?? new Logger('json', () => undefined)
  const app = new Hono<Env>()
  app.use('*', clientView(ctx.trustProxy))
  app.use('*', requestLog<Env>(log))
  app.use('*', securityHeaders())
  // Before sign-in lookups: a probe costs one query.
  app.get('/healthz', healthz(ctx))
  app.get('/metrics', metrics(ctx, ops.metricsToken, clientIp))
  app.use('*', identify(ctx))
  const small = bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.text('request too large', 413) })
  app.use('*', (c, next) => (UPLOAD_PATHS.has(c.req.path) ? next() : small(c, next)))
  app.use('*', csrfCheck())
  app.use('*', confineRaters(ctx))
  app.route('/api/v1', apiRoutes(ctx))
  app.route('/', raterRoutes(ctx))
  app.route('/', htmlRoutes(ctx))
  app.onError((e, c) => {
    log.error('internal error', {
      method: c.req.method,
      path: c.req.path,
      error: e.stack ?? String(e),
    })
    return c.text('internal error', 500)
  })
  return app
}

/** Submit every configured baseline run that is not submitted yet (not charged, no window). */
export async function ensureBaselines(ctx: ServerContext): Promise<void> {
  const team =
    (
      await ctx.db
        .selectFrom('teams')
        .select('id')
        .where('name', '=', BASELINE_TEAM)
        .executeTakeFirst()
    )?.id ?? (await createTeam(ctx.db, BASELINE_TEAM, ctx.now(), true))
  for (const t of ctx.competition.tracks) {
    for (const [name, file] of Object.entries(t.baselines ?? {})) {
      for (const p of ctx.competition.phases) {
        const have = await ctx.db
          .selectFrom('submissions')
          .select('id')
          .where('team_id', '=', team)
          .where('track', '=', t.id)
          .where('phase', '=', p.id)
          .where('original_name', '=', name)
          .executeTakeFirst()
        if (have) continue
        const out = await submitRun(ctx, {
          teamId: team,
          userId: null,
          track: t.id,
          phase: p.id,
          name,
          metadata: {},
          // A per-domain baseline run is a directory: each of its files, as an upload sends them.
          ...(statSync(file).isDirectory()
            ? {
                files: readdirSync(file)
                  .filter((f) => !f.startsWith('.'))
                  .sort()
                  .map((f) => ({ name: f, body: createReadStream(join(file, f)) })),
              }
            : { body: createReadStream(file) }),
          baseline: true,
        })
        if (out.kind === 'rejected')
          process.stderr.write(
            `trecscore serve: baseline ${name} of track ${t.id} (${p.id}) was refused: ${out.message}\n${out.report ?? ''}`,
          )
      }
    }
  }
}

/** What scores in a server process (see queue/job-queue.ts). */
export type Scorer = JobQueue

/** A running server (in-process or listening). */
export interface RunningServer {
  readonly ctx: ServerContext
  readonly app: Hono<Env>
  /** Who scores in this process: the SQLite supervisor, the Postgres queue's in-process worker, or nobody (`workers: 0`). */
  readonly supervisor: Scorer
  /** The URL, when listening. */
  readonly url: string | null
  close(): Promise<void>
}

/** Options of {@link startServer}. */
export interface StartOptions {
  readonly competition: Competition
  readonly dataDir: string
  /** The database, as `--db` takes it: `sqlite:PATH` or `postgres://…` (default: SQLite in `dataDir`). */
  readonly db?: string
  /** Where new uploads are stored (`--runs`, see storage/run-store.ts). @default 'directory' */
  readonly runs?: RunStoreKind
  /** Listen on this port (0: any free port); omit for an in-process server (tests). */
  readonly port?: number
  readonly host?: string
  readonly secureCookies?: boolean
  /** Behind a reverse proxy: client addresses and scheme from its headers (see routes/middleware.ts clientView). */
  readonly trustProxy?: boolean
  readonly now?: () => Date
  /**
   * Postgres only: scoring jobs this process takes from the queue at once (0: a web process
   * only; `trecscore worker` processes score). @default 1
   */
  readonly workers?: number
  /** Tests: a stub worker module. */
  readonly workerModule?: string
  readonly onChange?: (submissionId: string) => void
  /** Logs and /metrics access (see {@link OpsOptions}). */
  readonly ops?: OpsOptions
}

/** Open everything and start the server. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const location = parseDbLocation(options.db, options.dataDir)
  const db: Db = await openDatabase(location)
  // Uploads arrive in this process's own folder (other processes may share --data).
  const tmpDir = processTmpDir(options.dataDir)
  const now = options.now ?? (() => new Date())
  const log = options.ops?.log
  const runs = new RunStores(db, options.dataDir, options.runs ?? 'directory')
  // Chunks of uploads whose row never came (a process that died in between), an hour on.
  await sweepOrphanChunks(db, now())
  const queue = await openJobQueue({
    location,
    db,
    competition: options.competition,
    dataDir: options.dataDir,
    runs,
    scratchDir: tmpDir,
    now,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.workerModule ? { workerModule: options.workerModule } : {}),
    ...(options.onChange ? { onChange: options.onChange } : {}),
    ...(log ? { log } : {}),
  })
  // A web process on Postgres that scores nothing never reads the qrels (see context.ts).
  const holdsQrels = !(location.kind === 'postgres' && options.workers === 0)
  const ctx: ServerContext = {
    db,
    competition: options.competition,
    dataDir: options.dataDir,
    runs,
    limiter: new RateLimiter(db),
    now,
    kick: () => queue.enqueue(),
    secureCookies: options.secureCookies ?? false,
    trustProxy: options.trustProxy ?? false,
    tmpDir,
    topics: new TopicCache(db, options.dataDir, holdsQrels ? 'files' : 'database'),
    holdsQrels,
  }
  const sup: Scorer = queue
  const app = createApp(ctx, options.ops)
  // Baselines are runs from the data folder: a process that holds it submits them.
  if (holdsQrels) await ensureBaselines(ctx)
  // Release snapshots: at start, then every 30 s (scheduled releases, embargoes, re-scored qrels).
  const snapshots = (): Promise<void> =>
    writeDueSnapshots(ctx).then(
      () => undefined,
      (e: unknown) => {
        process.stderr.write(
          `trecscore serve: release snapshot failed: ${e instanceof Error ? e.message : String(e)}\n`,
        )
      },
    )
  await snapshots()
  const snapshotTimer = setInterval(() => void snapshots(), 30_000)
  snapshotTimer.unref()
  let server: ServerType | null = null
  let url: string | null = null
  if (options.port !== undefined) {
    const host = options.host ?? '127.0.0.1'
    await new Promise<void>((resolve) => {
      server = serve(
        {
          fetch: app.fetch,
          port: options.port!,
          hostname: host,
          // Node's default (300 s for the whole request) reset any upload still arriving
          // after 5 minutes: a 400 MB run below 1.3 MB/s. Headers still have 60 s.
          serverOptions: { requestTimeout: UPLOAD_ARRIVAL_MS },
        },
        (info) => {
          url = `http://${host}:${info.port}`
          resolve()
        },
      )
    })
  }
  return {
    ctx,
    app,
    supervisor: sup,
    get url() {
      return url
    },
    async close() {
      clearInterval(snapshotTimer)
      await sup.stop()
      if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
      await db.destroy()
      rmSync(tmpDir, { recursive: true, force: true })
    },
  }
}
