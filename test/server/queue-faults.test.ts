/**
 * Fault tests of the Postgres job queue with real worker processes (queue-worker-proc.ts:
 * `trecscore worker` with a stub scoring child), a web process that only sends jobs
 * (`workers: 0`) and a real pg-boss on the test cluster. Each asserts that no submission is
 * lost, scored twice or left running:
 * - a worker process SIGKILLed mid-job: its job expires and another worker scores it, once;
 * - workers racing for the same jobs: each job is taken by one, each submission scored once;
 * - a job that hangs: killed at the time limit, retried, then failed visibly and uncharged;
 * - per-team concurrency: a team's jobs never run more than `perTeamConcurrency` at once.
 * Postgres only by nature: it opens its own databases (listed in sqlite-only.ts) and is
 * reported as skipped, with the reason, when no Postgres test server is set.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createReadStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createTeam } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { submitRun } from '../../src/server/submissions.js'
import { createTestDatabase, PG_ADMIN_URL, PG_SKIP_REASON } from './backend.js'
import { makeCompetition, ROOT } from './helpers.js'

const WORKER = {
  maxAttempts: 2,
  timeLimitSeconds: 1,
  expireGraceSeconds: 1,
  retryDelaySeconds: 1,
  retryBackoff: false,
  maintenanceIntervalSeconds: 1,
  perTeamConcurrency: 1,
}
const comp = makeCompetition({ config: { worker: WORKER } })
const procs: ChildProcess[] = []
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL')
  comp.cleanup()
})

const OUTCOME = `{ primary: 0.5, columns: { 'nDCG@10': 0.5 }, perQuery: [], notes: { warnings: [], counts: {} }, provenance: { command: 'stub' } }`

/** A stub scoring child: `behaviour(message)` is 'answer', 'hang' or 'slow' (answers after 300 ms). */
function stub(name: string, behaviour: string): string {
  const file = join(comp.dir, `${name}.mjs`)
  writeFileSync(
    file,
    `const behaviour = ${behaviour}
process.on('message', (m) => {
  const b = behaviour(m)
  const answer = () => process.send({ type: 'scored', submissionId: m.submissionId, attempt: m.attempt, outcome: ${OUTCOME} })
  if (b === 'answer') answer()
  if (b === 'slow') setTimeout(answer, 300)
})
process.on('disconnect', () => process.exit(0))
`,
  )
  return file
}

/** Start a worker process; resolves once it takes jobs. */
function worker(url: string, module: string, overrides: object = {}): Promise<ChildProcess> {
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
      JSON.stringify({ ...WORKER, ...overrides }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  procs.push(p)
  return new Promise((resolve, reject) => {
    let out = ''
    p.stdout!.on('data', (b: Buffer) => {
      out += b.toString()
      if (out.includes('ready\n')) resolve(p)
    })
    p.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)))
  })
}

async function web(url: string): Promise<RunningServer> {
  const competition = loadCompetition(comp.config)
  return startServer({
    competition: {
      ...competition,
      worker: { ...competition.worker, ...WORKER },
      limits: { ...competition.limits, perDay: 1000, concurrent: 1000 },
      tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
    },
    dataDir: comp.data,
    db: url,
    workers: 0,
  })
}

async function submit(server: RunningServer, team: string): Promise<string> {
  const teamId =
    (
      await server.ctx.db
        .selectFrom('teams')
        .select('id')
        .where('name', '=', team)
        .executeTakeFirst()
    )?.id ?? (await createTeam(server.ctx.db, team, new Date()))
  const out = await submitRun(server.ctx, {
    teamId,
    userId: null,
    track: 'dl',
    phase: 'dev',
    name: 'bm25.run',
    metadata: { kind: 'automatic' },
    body: createReadStream(comp.runs.bm25),
  })
  expect(out.kind).toBe('accepted')
  return (out as { id: string }).id
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function rows(server: RunningServer) {
  return server.ctx.db.selectFrom('submissions').selectAll().orderBy('created_at').execute()
}

async function scoreCounts(server: RunningServer): Promise<Map<string, number>> {
  const m = new Map<string, number>()
  for (const s of await server.ctx.db.selectFrom('scores').select('submission_id').execute())
    m.set(s.submission_id, (m.get(s.submission_id) ?? 0) + 1)
  return m
}

async function allFinished(server: RunningServer, n: number) {
  return until(`${n} submissions to finish`, async () => {
    const r = await rows(server)
    return r.length === n && r.every((s) => s.state === 'scored' || s.state === 'failed')
      ? r
      : undefined
  })
}

const run = PG_ADMIN_URL ? describe : describe.skip
if (!PG_ADMIN_URL)
  process.stderr.write(`test/server/queue-faults.test.ts: SKIPPED, ${PG_SKIP_REASON}\n`)

run(
  `the Postgres job queue under faults${PG_ADMIN_URL ? '' : ` (SKIPPED: ${PG_SKIP_REASON})`}`,
  () => {
    it('a worker process SIGKILLed mid-job: the job expires, another worker scores it exactly once', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        const first = await worker(url, stub('hang', `() => 'hang'`))
        const id = await submit(server, 'kill-team')
        await until('the first worker to take the job', async () =>
          (await rows(server))[0]?.state === 'scoring' ? true : undefined,
        )
        first.kill('SIGKILL')
        await worker(url, stub('answer', `() => 'answer'`))
        const [r] = await allFinished(server, 1)
        expect(r).toMatchObject({ id, state: 'scored', attempts: 2, charged: 1, reason: null })
        expect([...(await scoreCounts(server))]).toEqual([[id, 1]])
      } finally {
        await server.close()
      }
    }, 60_000)

    it('three workers racing for 12 jobs of 12 teams: each taken once, each submission scored once', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        const ids: string[] = []
        for (let i = 0; i < 12; i++) ids.push(await submit(server, `race-${i}`))
        const slow = stub('slow', `() => 'slow'`)
        await Promise.all([worker(url, slow), worker(url, slow), worker(url, slow)])
        const done = await allFinished(server, 12)
        expect(done.map((r) => [r.state, r.attempts])).toEqual(ids.map(() => ['scored', 1]))
        const counts = await scoreCounts(server)
        expect(ids.map((id) => counts.get(id))).toEqual(ids.map(() => 1))
      } finally {
        await server.close()
      }
    }, 60_000)

    it('a job that hangs: killed at the time limit, retried, then failed visibly and not charged', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        await worker(url, stub('hang-always', `() => 'hang'`))
        const id = await submit(server, 'hang-team')
        const [r] = await allFinished(server, 1)
        expect(r).toMatchObject({
          id,
          state: 'failed',
          attempts: 2,
          charged: 0,
          reason: 'time limit exceeded (1 s, attempt 2 of 2); not charged',
        })
        expect(await scoreCounts(server)).toEqual(new Map())
      } finally {
        await server.close()
      }
    }, 60_000)

    it('per-team concurrency: one team never has two jobs scoring at once, over two workers', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        const slow = stub('slow-team', `() => 'slow'`)
        await Promise.all([worker(url, slow), worker(url, slow)])
        for (let i = 0; i < 4; i++) await submit(server, 'one-team')
        let most = 0
        await until('the team to finish', async () => {
          const r = await rows(server)
          most = Math.max(most, r.filter((s) => s.state === 'scoring').length)
          return r.every((s) => s.state === 'scored') ? r : undefined
        })
        expect(most).toBe(1)
        expect([...(await scoreCounts(server)).values()]).toEqual([1, 1, 1, 1])
      } finally {
        await server.close()
      }
    }, 60_000)
  },
)
