/**
 * Fault tests of the database connections on Postgres: the server's connections die under it
 * and nothing is half applied.
 * - The web process's connections terminated (`pg_terminate_backend`) during a stream of API
 *   uploads and board reads: every request ends (no hang), with 2xx or an error status; every
 *   acknowledged upload has its row and stored file, no row lacks its file, no stored file lacks
 *   its row, no temp upload is left; the server keeps serving.
 * - A worker process's connections terminated mid-job: the job is scored exactly once, the
 *   worker reconnects and scores the next jobs.
 * - Postgres restarted (a fast shutdown, a second down) during a burst of 30 uploads, on a
 *   cluster of this test's own: each upload is acknowledged (202 and an id: its row and file are
 *   there afterwards) or told it failed; none is dropped silently; new uploads are taken after
 *   the restart and every accepted one ends scored once.
 * Postgres only by nature (listed in sqlite-only.ts): reported as skipped, with the reason,
 * when no Postgres test server is set.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findPostgres, startCluster } from '../../scripts/pg-test-cluster.mjs'
import { type RunningServer, startServer } from '../../src/server/app.js'
import {
  acceptInvite,
  createApiToken,
  createInvite,
  createOrganizer,
  createTeam,
} from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { publishTopicLists } from '../../src/server/topic-cache.js'
import { createTestDatabase, PG_ADMIN_URL, PG_SKIP_REASON, withDatabase } from './backend.js'
import { makeCompetition, ROOT, runSubset } from './helpers.js'
import { submitAs, until } from './scoring-helpers.js'

const WORKER = {
  maxAttempts: 3,
  timeLimitSeconds: 30,
  expireGraceSeconds: 2,
  retryDelaySeconds: 1,
  retryBackoff: false,
  maintenanceIntervalSeconds: 1,
  perTeamConcurrency: 2,
}
const comp = makeCompetition({ config: { worker: WORKER } })
const procs: ChildProcess[] = []
const cleanups: (() => void)[] = []
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL')
  for (const c of cleanups) c()
  comp.cleanup()
})

/** A small valid run (queries 1–10): validation stays quick, uploads many. */
const RUN = Buffer.from(runSubset(comp.runs.bm25, (q) => q <= 10))

const OUTCOME = `{ primary: 0.5, columns: { 'nDCG@10': 0.5 }, perQuery: [], notes: { warnings: [], counts: {} }, provenance: { command: 'stub' } }`

/** A stub scoring child that answers once `gate` (a file) exists, or at once without one. */
function stub(name: string, gate?: string): string {
  const file = join(comp.dir, `${name}.mjs`)
  writeFileSync(
    file,
    `const fs = process.getBuiltinModule('node:fs')
const gate = ${JSON.stringify(gate ?? null)}
process.on('message', (m) => {
  const answer = () => process.send({ type: 'scored', submissionId: m.submissionId, attempt: m.attempt, outcome: ${OUTCOME} })
  if (gate === null) return answer()
  const t = setInterval(() => { if (fs.existsSync(gate)) { clearInterval(t); answer() } }, 20)
})
process.on('disconnect', () => process.exit(0))
`,
  )
  return file
}

/** A web process on `url` over `dataDir`, listening on a free port; limits out of the way. */
async function web(
  url: string,
  dataDir: string,
  scoring: { workers: number; workerModule?: string } = { workers: 0 },
  worker: Partial<typeof WORKER> = {},
): Promise<RunningServer> {
  const competition = loadCompetition(comp.config)
  const server = await startServer({
    competition: {
      ...competition,
      worker: { ...competition.worker, ...WORKER, ...worker },
      limits: { ...competition.limits, perDay: 1000, perPhase: 1000, concurrent: 1000 },
      rateLimits: { loginPerMinute: 1000, uploadPerMinute: 1000, apiPerMinute: 10_000 },
      tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
    },
    dataDir,
    db: url,
    port: 0,
    ...scoring,
  })
  // A web process without scoring checks uploads against the topic lists a worker publishes
  // (topic-cache.ts): published here, as a deployment's workers would have done.
  await publishTopicLists(server.ctx.db, competition, dataDir)
  return server
}

/** `n` teams, each with a member and an API token; returns the tokens. */
async function teamTokens(server: RunningServer, prefix: string, n: number): Promise<string[]> {
  const { db } = server.ctx
  const now = new Date()
  const org = await createOrganizer(db, `${prefix}-org`, 'organizer-secret-1', now)
  const tokens: string[] = []
  for (let i = 0; i < n; i++) {
    const team = await createTeam(db, `${prefix}-team-${i}`, now)
    const user = await acceptInvite(
      db,
      await createInvite(db, team, org, now),
      `${prefix}-member-${i}`,
      'member-password-1',
      now,
    )
    tokens.push((await createApiToken(db, user, team, 'faults', now)).token)
  }
  return tokens
}

/** How one HTTP request ended: a status (and the submission id of an accepted upload), or a connection error. */
type Outcome =
  | { readonly kind: 'upload' | 'read'; readonly status: number; readonly id?: string }
  | { readonly kind: 'upload' | 'read'; readonly error: string }

/** One request, with a deadline: a request still open after 20 s is a hang (an error named so). */
async function call(
  kind: 'upload' | 'read',
  url: string,
  init: RequestInit = {},
): Promise<Outcome> {
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) })
    const text = await r.text()
    const id =
      kind === 'upload' && r.status === 202 ? (JSON.parse(text) as { id: string }).id : undefined
    return { kind, status: r.status, ...(id ? { id } : {}) }
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } }
    return {
      kind,
      error: err.name === 'TimeoutError' ? 'hang' : `${err.message} (${err.cause?.code ?? '?'})`,
    }
  }
}

function upload(server: RunningServer, token: string): Promise<Outcome> {
  return call('upload', `${server.url}/api/v1/submissions?track=dl&phase=dev&name=r.run`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'x-trecscore-metadata': '{"kind":"automatic"}',
    },
    body: RUN,
  })
}

function readBoard(server: RunningServer): Promise<Outcome> {
  return call('read', `${server.url}/api/v1/boards/dl/dev`)
}

const ok = (o: Outcome): boolean => 'status' in o && o.status >= 200 && o.status < 300
const acknowledged = (outcomes: readonly Outcome[]): string[] =>
  outcomes.flatMap((o) => ('id' in o && o.id ? [o.id] : []))

/** Terminate every session on `database` of the server at `adminUrl`; returns how many ended. */
async function terminate(adminUrl: string, database: string): Promise<number> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const r = await client.query<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    )
    return r.rows.filter((row) => row.ok).length
  } finally {
    await client.end()
  }
}

const dbName = (url: string): string => new URL(url).pathname.slice(1)

/**
 * Rows and files agree: every submission row has its stored file, every folder under runs/ is
 * a row's, and no temp upload is left. Returns the row ids.
 */
async function storedAgree(server: RunningServer): Promise<string[]> {
  const data = server.ctx.dataDir
  const rows = await server.ctx.db.selectFrom('submissions').select(['id', 'file']).execute()
  for (const r of rows) expect(existsSync(join(data, r.file)), `the file of ${r.id}`).toBe(true)
  const runs = existsSync(join(data, 'runs')) ? readdirSync(join(data, 'runs')) : []
  expect(runs.sort(), 'stored run folders = submission rows').toEqual(rows.map((r) => r.id).sort())
  // Each server process has its own folder in tmp/ (storage/tmp.ts): no upload left in any.
  const root = join(data, 'tmp')
  const tmp = existsSync(root)
    ? readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => `${d}/${f}`))
    : []
  expect(tmp, 'temp uploads left').toEqual([])
  return rows.map((r) => r.id)
}

async function scoreCounts(server: RunningServer): Promise<Map<string, number>> {
  const m = new Map<string, number>()
  for (const s of await server.ctx.db.selectFrom('scores').select('submission_id').execute())
    m.set(s.submission_id, (m.get(s.submission_id) ?? 0) + 1)
  return m
}

async function allScored(server: RunningServer, n: number, timeoutMs = 60_000) {
  return until(
    `${n} submissions to be scored`,
    async () => {
      const r = await server.ctx.db.selectFrom('submissions').selectAll().execute()
      return r.length === n && r.every((s) => s.state === 'scored') ? r : undefined
    },
    timeoutMs,
  )
}

/** Start a worker process (queue-worker-proc.ts); resolves once it takes jobs. */
function worker(url: string, module: string, log: { out: string }): Promise<ChildProcess> {
  const p = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'test', 'server', 'queue-worker-proc.ts'),
      url,
      comp.config,
      comp.data,
      module,
      JSON.stringify(WORKER),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  procs.push(p)
  return new Promise((resolve, reject) => {
    p.stdout!.on('data', (b: Buffer) => {
      log.out += b.toString()
      if (log.out.includes('ready\n')) resolve(p)
    })
    p.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)))
  })
}

const run = PG_ADMIN_URL ? describe : describe.skip
if (!PG_ADMIN_URL)
  process.stderr.write(`test/server/pg-faults.test.ts: SKIPPED, ${PG_SKIP_REASON}\n`)
const bin = PG_ADMIN_URL ? findPostgres() : null
const NO_BIN =
  'PostgreSQL binaries (initdb, pg_ctl) are not installed: the restart test owns a cluster'
if (PG_ADMIN_URL && !bin)
  process.stderr.write(`test/server/pg-faults.test.ts: the restart test SKIPPED, ${NO_BIN}\n`)

run(
  `database connection faults on Postgres${PG_ADMIN_URL ? '' : ` (SKIPPED: ${PG_SKIP_REASON})`}`,
  () => {
    it('the web process loses its connections mid-stream: no hang, no half upload, it keeps serving', async () => {
      const url = await createTestDatabase()
      const server = await web(url, join(comp.dir, 'web-kill'))
      try {
        const tokens = await teamTokens(server, 'wk', 4)
        const outcomes: Outcome[] = []
        const end = Date.now() + 3_000
        const streams = tokens.map(async (token) => {
          while (Date.now() < end) {
            outcomes.push(await upload(server, token))
            outcomes.push(await readBoard(server))
          }
        })
        let terminated = 0
        const killer = (async () => {
          // At 0.4 s, 1.2 s and 2.0 s into the stream.
          for (const wait of [400, 800, 800]) {
            await new Promise((resolve) => setTimeout(resolve, wait))
            terminated += await terminate(PG_ADMIN_URL!, dbName(url))
          }
        })()
        await Promise.all([...streams, killer])
        expect(terminated, 'sessions terminated').toBeGreaterThan(0)
        // Every request ended with a status; none hung and none lost its connection to the server.
        expect(outcomes.filter((o) => 'error' in o)).toEqual([])
        const statuses = outcomes.map((o) => ('status' in o ? o.status : 0))
        expect(statuses.filter((s) => !(s === 200 || s === 202 || s === 500))).toEqual([])
        const ids = acknowledged(outcomes)
        expect(ids.length).toBeGreaterThan(0)
        // Acknowledged uploads are exactly the rows; rows and stored files agree.
        expect((await storedAgree(server)).sort()).toEqual([...ids].sort())
        process.stderr.write(
          `pg-faults web kill: ${outcomes.length} requests, ${terminated} sessions terminated, ${ids.length} uploads acknowledged, ${statuses.filter((s) => s === 500).length} answered 500\n`,
        )
        // Once more while idle; then (the pool having seen its idle connections end) every
        // request succeeds on new connections.
        expect(await terminate(PG_ADMIN_URL!, dbName(url))).toBeGreaterThan(0)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const after = await Promise.all(
          tokens.flatMap((t) => [upload(server, t), readBoard(server)]),
        )
        expect(after.map((o) => ('status' in o ? o.status : o.error))).toEqual(
          tokens.flatMap(() => [202, 200]),
        )
        expect((await storedAgree(server)).length).toBe(ids.length + tokens.length)
      } finally {
        await server.close()
      }
    }, 90_000)

    it('a worker process loses its connections mid-job: scored exactly once; it reconnects and scores later jobs', async () => {
      const url = await createTestDatabase()
      const server = await web(url, comp.data)
      try {
        const gate = join(comp.dir, 'worker-kill-gate')
        const log = { out: '' }
        const proc = await worker(url, stub('gated', gate), log)
        const first = await submitAs(server, 'wkill-a', comp.runs.bm25)
        await until('the worker to take the job', async () =>
          (
            await server.ctx.db
              .selectFrom('submissions')
              .select('state')
              .where('id', '=', first)
              .executeTakeFirst()
          )?.state === 'scoring'
            ? true
            : undefined,
        )
        // The worker holds the job (its child waits on the gate): cut every session of the
        // database, the worker's pool and its pg-boss's (and this web process's) included.
        expect(await terminate(PG_ADMIN_URL!, dbName(url))).toBeGreaterThan(1)
        await new Promise((resolve) => setTimeout(resolve, 500))
        writeFileSync(gate, '')
        const [r] = await allScored(server, 1)
        expect(r).toMatchObject({ id: first, state: 'scored', charged: 1 })
        expect([...(await scoreCounts(server))]).toEqual([[first, 1]])
        expect(proc.exitCode, 'the worker process is alive').toBeNull()
        // Later jobs, after one more cut while it idles: scored once each by the same worker.
        // (This process's pool too: the pause lets it see its idle connections end first, as
        // a query sent on one in the same instant would fail.)
        expect(await terminate(PG_ADMIN_URL!, dbName(url))).toBeGreaterThan(0)
        await new Promise((resolve) => setTimeout(resolve, 500))
        const later = [
          await submitAs(server, 'wkill-b', comp.runs.bm25),
          await submitAs(server, 'wkill-c', comp.runs.bm25),
        ]
        await allScored(server, 3)
        const counts = await scoreCounts(server)
        expect([first, ...later].map((id) => counts.get(id))).toEqual([1, 1, 1])
        expect(proc.exitCode).toBeNull()
        for (const id of later) expect(log.out).toContain(`score ${id}: scored`)
      } finally {
        await server.close()
      }
    }, 90_000)

    it.skipIf(!bin)(
      `Postgres restarted during a burst of 30 uploads: each acknowledged one is kept, the others told they failed${bin ? '' : ` (SKIPPED: ${NO_BIN})`}`,
      async () => {
        const cluster = await startCluster({ bin, quiet: true })
        cleanups.push(() => cluster.stop())
        const pg = (await import('pg')).default
        const admin = new pg.Client({ connectionString: cluster.url })
        await admin.connect()
        await admin.query('create database restart_board')
        await admin.end()
        const url = withDatabase(cluster.url, 'restart_board')
        // A job whose handler the restart interrupted may be left active (pg-boss could not
        // mark it failed): it expires after timeLimitSeconds + expireGraceSeconds (here 12 s)
        // and is delivered again.
        const server = await web(
          url,
          join(comp.dir, 'restart-board'),
          { workers: 2, workerModule: stub('restart-answer') },
          { timeLimitSeconds: 10 },
        )
        try {
          const tokens = await teamTokens(server, 'rs', 10)
          // 30 uploads, started 100 ms apart; 0.6 s in, Postgres shuts down (fast: every
          // session ended) and stays down half a second: some uploads go before, some during
          // and some after the restart.
          const burst = Array.from({ length: 30 }, async (_, i) => {
            await new Promise((resolve) => setTimeout(resolve, i * 100))
            return upload(server, tokens[i % tokens.length]!)
          })
          const restart = (async () => {
            await new Promise((resolve) => setTimeout(resolve, 600))
            await cluster.restart(500)
          })()
          const outcomes = await Promise.all(burst)
          await restart
          const ids = acknowledged(outcomes)
          const failed = outcomes.filter((o) => !ok(o))
          process.stderr.write(
            `pg-faults restart: ${ids.length} acknowledged, ${failed.length} failed (${failed.map((o) => ('status' in o ? o.status : o.error)).join(', ')})\n`,
          )
          // Every upload ended (no hang), acknowledged with an id or told it failed.
          expect(outcomes.filter((o) => 'error' in o && o.error === 'hang')).toEqual([])
          expect(ids.length + failed.length).toBe(30)
          expect(outcomes.filter((o) => ok(o) && !('id' in o && o.id))).toEqual([])
          expect(failed.length, 'the restart cost some uploads').toBeGreaterThan(0)
          for (const o of failed) if ('status' in o) expect(o.status).toBeGreaterThanOrEqual(500)
          // The server takes new uploads (its pool finds the restarted server).
          const after = await until('the server to take uploads again', async () => {
            const o = await upload(server, tokens[0]!)
            return 'id' in o && o.id ? o.id : undefined
          })
          const more = await Promise.all(tokens.slice(1, 3).map((t) => upload(server, t)))
          expect(more.map((o) => ('status' in o ? o.status : o.error))).toEqual([202, 202])
          const all = [...ids, after, ...acknowledged(more)]
          // Every acknowledged upload has its row and file, nothing else does; all scored once.
          expect((await storedAgree(server)).sort()).toEqual([...all].sort())
          await allScored(server, all.length)
          const counts = await scoreCounts(server)
          expect(all.map((id) => counts.get(id))).toEqual(all.map(() => 1))
        } finally {
          await server.close()
        }
      },
      120_000,
    )
  },
)
