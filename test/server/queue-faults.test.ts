/**
 * Fault tests of the Postgres job queue with real worker processes (queue-worker-proc.ts:
 * `trecscore worker` with a stub scoring child), a web process that only sends jobs
 * (`workers: 0`) and a real pg-boss on the test cluster. Each asserts that no submission is
 * lost, scored twice or left running:
 * - a worker process SIGKILLed mid-job: its job expires and another worker scores it, once;
 * - workers racing for the same jobs (two for one job, three for twelve): each job is taken by
 *   one, each submission scored once;
 * - a job that hangs: killed at the time limit, retried, then failed visibly and uncharged;
 * - per-team concurrency: a team's jobs never run more than `perTeamConcurrency` at once;
 * - priorities: an organizer's re-scoring job goes before team uploads queued earlier, and a
 *   job delivered again for a scored submission is a logged no-op;
 * - dead letters: a job the queue gives up on fails its row visibly, uncharged, listed for
 *   organizers;
 * - `trecscore serve` on Postgres scores nothing unless given `--workers`: its jobs wait for a
 *   worker process.
 * Postgres only by nature: it opens its own databases (listed in sqlite-only.ts) and is
 * reported as skipped, with the reason, when no Postgres test server is set.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { addQrelsVersion } from '../../src/server/qrels-versions.js'
import { openQueue, SCORE_QUEUE, sendJob } from '../../src/server/queue/pg-queue.js'
import { publishTopicLists } from '../../src/server/topic-cache.js'
import { createTestDatabase, PG_ADMIN_URL, PG_SKIP_REASON } from './backend.js'
import { Client } from './client.js'
import { makeCompetition, ROOT } from './helpers.js'
import { submitAs, until } from './scoring-helpers.js'

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
/** What each worker process printed (its log lines). */
const logs = new Map<ChildProcess, string>()
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
      logs.set(p, out)
      if (out.includes('ready\n')) resolve(p)
    })
    p.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)))
  })
}

/**
 * A web process that scores nothing (and reads no qrels: its topic lists are the ones a worker
 * publishes, done here as the workers of a running deployment would have done).
 */
async function web(url: string): Promise<RunningServer> {
  const competition = loadCompetition(comp.config)
  const server = await startServer({
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
  await publishTopicLists(server.ctx.db, competition, comp.data)
  return server
}

function submit(server: RunningServer, team: string): Promise<string> {
  return submitAs(server, team, comp.runs.bm25)
}

/** Stop a worker process the way an operator does (SIGTERM) and wait for it to exit. */
async function stopWorker(p: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()))
  p.kill('SIGTERM')
  await exited
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

    it('two workers racing for the same job: one takes it, the other never starts it; one score row', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        const slow = stub('slow-pair', `() => 'slow'`)
        const pair = await Promise.all([worker(url, slow), worker(url, slow)])
        const id = await submit(server, 'pair-team')
        const [r] = await allFinished(server, 1)
        expect(r).toMatchObject({ id, state: 'scored', attempts: 1, charged: 1 })
        expect([...(await scoreCounts(server))]).toEqual([[id, 1]])
        // Exactly one of the two ever started the job, and nobody took it over.
        const started = pair.map(
          (p) => (logs.get(p) ?? '').split(`score ${id}: attempt 1: scoring`).length - 1,
        )
        expect(started.sort()).toEqual([0, 1])
        expect(pair.map((p) => logs.get(p) ?? '').join('')).not.toMatch(/taken over|attempt 2/)
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

    it('priorities: a re-scoring job goes before team uploads queued earlier; a second delivery is a no-op', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      try {
        const first = await worker(url, stub('answer-prio', `() => 'answer'`))
        const a = await submit(server, 'prio-a')
        await allFinished(server, 1)
        await stopWorker(first)
        // Two uploads wait in the queue, then the organizer adds a qrels version (re-scores a).
        const b = await submit(server, 'prio-b')
        const c = await submit(server, 'prio-c')
        const track = server.ctx.competition.tracks.find((t) => t.id === 'dl')!
        const phase = server.ctx.competition.phases.find((p) => p.id === 'dev')!
        expect(
          await addQrelsVersion(server.ctx, {
            track,
            phase,
            bytes: readFileSync(join(comp.dir, 'dl', 'qrels-dev.txt')),
            note: 'v2',
            userId: 'org',
          }),
        ).toEqual({ version: 2, rescoring: 1 })
        const second = await worker(url, stub('slow-prio', `() => 'slow'`))
        await until('the re-score and both uploads', async () => {
          const r = await rows(server)
          const job = await server.ctx.db.selectFrom('rescores').selectAll().executeTakeFirst()
          return job?.state === 'done' && r.every((s) => s.state === 'scored') ? true : undefined
        })
        const scores = await server.ctx.db
          .selectFrom('scores')
          .select(['submission_id', 'qrels_version'])
          .orderBy('created_at')
          .orderBy('id')
          .execute()
        // One worker, one job at a time: the order of the score rows is the order of the jobs
        // (the uploads are scored against the newest qrels version, 2, too).
        expect(scores).toEqual([
          { submission_id: a, qrels_version: 1 },
          { submission_id: a, qrels_version: 2 },
          { submission_id: b, qrels_version: 2 },
          { submission_id: c, qrels_version: 2 },
        ])
        // The same job delivered once more (say a web process re-sent it): logged, nothing added.
        const boss = await openQueue(url, server.ctx.competition)
        try {
          expect(await sendJob(boss, { kind: 'score', key: b })).not.toBeNull()
          await until('the worker to drop the second delivery', async () =>
            (logs.get(second) ?? '').includes(
              `score ${b}: already finished (a second delivery): nothing to do`,
            )
              ? true
              : undefined,
          )
        } finally {
          await boss.stop({ graceful: false })
        }
        expect([...(await scoreCounts(server))].sort()).toEqual(
          [
            [a, 2],
            [b, 1],
            [c, 1],
          ].sort(),
        )
        expect((await rows(server)).map((r) => r.attempts)).toEqual([1, 1, 1])
      } finally {
        await server.close()
      }
    }, 60_000)

    it('dead letters: a job the queue gives up on fails its row visibly, uncharged, shown to organizers', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      const boss = await openQueue(url, server.ctx.competition)
      try {
        const id = await submit(server, 'dead-team')
        // A worker takes the job and claims the row, then dies before it can answer; no worker
        // is left to score it, so every retry fails too (each delivery failed by hand) until
        // pg-boss gives up and moves the job to the dead-letter queue.
        await server.ctx.db
          .updateTable('submissions')
          .set({ state: 'scoring', attempts: 1, started_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute()
        let deliveries = 0
        let jobId: string | undefined
        await until('pg-boss to give up on the job', async () => {
          const [job] = await boss.fetch<{ key: string }>(SCORE_QUEUE)
          if (job) {
            expect(job.data.key).toBe(id)
            jobId ??= job.id
            expect(job.id).toBe(jobId)
            deliveries++
            await boss.fail(SCORE_QUEUE, job.id, { message: 'the worker vanished' })
          }
          if (jobId === undefined) return undefined
          const state = (await boss.getJobById(SCORE_QUEUE, jobId))?.state
          return state === 'failed' ? true : undefined
        })
        // retryLimit = worker.maxAttempts: one delivery plus that many retries.
        expect(deliveries).toBe(WORKER.maxAttempts + 1)
        expect((await rows(server))[0]?.state).toBe('scoring')
        // A worker takes the dead letter and fails the row with the reason.
        await worker(url, stub('answer-dead', `() => 'answer'`))
        const [r] = await allFinished(server, 1)
        expect(r).toMatchObject({
          id,
          state: 'failed',
          attempts: 1,
          charged: 0,
          reason:
            'the queue gave up after 1 attempt(s) (the worker died or the job expired); not charged',
        })
        expect(await scoreCounts(server)).toEqual(new Map())
        await createOrganizer(server.ctx.db, 'org-dead', 'organizer-secret-3', new Date())
        const org = new Client(server.app, 'org-dead')
        expect((await org.login('org-dead', 'organizer-secret-3')).status).toBe(303)
        expect((await org.get('/org')).text).toContain(
          `<td><a href="/submissions/${id}">${id}</a></td><td>dead-team</td><td>dl</td><td>dev</td><td>1</td><td class="error">the queue gave up after 1 attempt(s) (the worker died or the job expired); not charged</td>`,
        )
      } finally {
        await boss.stop({ graceful: false })
        await server.close()
      }
    }, 60_000)

    it('`trecscore serve --db postgres://…` scores nothing by default: its submissions wait for a worker', async () => {
      const url = await createTestDatabase()
      const server = await web(url)
      const cliServe = spawn(
        process.execPath,
        [
          join(ROOT, 'bin', 'trecscore.js'),
          'serve',
          '--config',
          comp.config,
          '--data',
          comp.data,
          '--db',
          url,
          '--port',
          '0',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      )
      procs.push(cliServe)
      try {
        let out = ''
        await until('serve to listen', async () => {
          const b = cliServe.stdout!.read() as Buffer | null
          if (b) out += b.toString()
          return out.includes('\n') ? true : undefined
        })
        expect(out).toMatch(
          /^trecscore serve: .* on http:\/\/127\.0\.0\.1:\d+ \(.*; no scoring and no qrels here: run `trecscore worker`\)\n$/,
        )
        const id = await submit(server, 'idle-team')
        // Two web processes, no worker: the upload's job waits (3 s is many polls of 0.5 s).
        // Neither submitted the baselines: they are runs from the data folder, which a web
        // process without scoring does not read (a worker submits them).
        await new Promise((resolve) => setTimeout(resolve, 3_000))
        const waiting = await rows(server)
        expect(waiting.map((r) => r.id)).toEqual([id])
        expect(new Set(waiting.map((r) => `${r.state} ${r.attempts}`))).toEqual(
          new Set(['queued 0']),
        )
        await worker(url, stub('answer-idle', `() => 'answer'`))
        const done = await allFinished(server, waiting.length)
        expect(new Set(done.map((r) => `${r.state} ${r.attempts}`))).toEqual(new Set(['scored 1']))
      } finally {
        cliServe.kill('SIGTERM')
        await server.close()
      }
    }, 60_000)
  },
)
