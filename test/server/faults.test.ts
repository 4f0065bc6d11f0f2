/**
 * Fault tests of the scoring queue, with stub worker processes (real child processes, real
 * SQLite): a worker SIGKILLed while it scores is retried and the job scored exactly once; a
 * worker that dies on every attempt fails the job uncharged; a job past its time limit fails
 * visibly and uncharged; a server stopped mid-job requeues it on restart; a worker killed while
 * it re-scores for a new qrels version is retried and adds exactly one score version.
 */
import { createReadStream, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer, createTeam } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { addQrelsVersion } from '../../src/server/qrels-versions.js'
import { submitRun } from '../../src/server/submissions.js'
import { dbOptions } from './backend.js'
import { Client } from './client.js'
import { makeCompetition, runSubset } from './helpers.js'
import { submitAs, until } from './scoring-helpers.js'

const comp = makeCompetition({
  config: { worker: { maxAttempts: 2, retryDelaySeconds: 1, retryBackoff: false } },
})
afterAll(() => comp.cleanup())

const OUTCOME = `{ primary: 0.5, columns: { 'nDCG@10': 0.5 }, perQuery: [], notes: { warnings: [], counts: {} }, provenance: { command: 'stub' } }`

/** A stub worker: `behaviour(attempt)` is 'answer', 'hang' or 'die'. */
function stub(name: string, behaviour: string): string {
  const file = join(comp.dir, `${name}.mjs`)
  writeFileSync(
    file,
    `const behaviour = ${behaviour}
process.on('message', (m) => {
  const b = behaviour(m.attempt)
  if (b === 'die') process.kill(process.pid, 'SIGKILL')
  if (b === 'answer') process.send({ type: 'scored', submissionId: m.submissionId, attempt: m.attempt, outcome: ${OUTCOME} })
})
process.on('disconnect', () => process.exit(0))
`,
  )
  return file
}

async function start(
  workerModule: string,
  timeLimitSeconds = 30,
  dataDir = comp.data,
): Promise<RunningServer> {
  const competition = loadCompetition(comp.config)
  return startServer({
    competition: {
      ...competition,
      worker: { ...competition.worker, timeLimitSeconds },
      tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
    },
    dataDir,
    ...(await dbOptions(dataDir)),
    workerModule,
  })
}

function submit(server: RunningServer, team: string): Promise<string> {
  return submitAs(server, team, comp.runs.bm25)
}

async function row(server: RunningServer, id: string) {
  return server.ctx.db
    .selectFrom('submissions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
}

async function finished(server: RunningServer, id: string, timeoutMs?: number) {
  return until(
    `submission ${id} to finish`,
    async () => {
      const r = await row(server, id)
      return r.state === 'scored' || r.state === 'failed' ? r : undefined
    },
    timeoutMs,
  )
}

async function scoreVersions(server: RunningServer, id: string): Promise<number[]> {
  return (
    await server.ctx.db
      .selectFrom('scores')
      .select('version')
      .where('submission_id', '=', id)
      .execute()
  ).map((s) => s.version)
}

describe('scoring faults', () => {
  it('SIGKILL of the worker while it scores: the job is retried and scored exactly once', async () => {
    const server = await start(
      stub('hang-first', `(attempt) => (attempt === 1 ? 'hang' : 'answer')`),
    )
    try {
      const id = await submit(server, 'kill-team')
      const pid = await until('the worker to take the job', async () =>
        (await row(server, id)).state === 'scoring' ? server.supervisor.workerPid : undefined,
      )
      process.kill(pid, 'SIGKILL')
      const r = await finished(server, id)
      expect(r).toMatchObject({ state: 'scored', attempts: 2, charged: 1, reason: null })
      expect(await scoreVersions(server, id)).toEqual([1])
    } finally {
      await server.close()
    }
  })
  it('SIGKILL of the worker while it re-scores for a new qrels version: retried, one new score version, the old one kept', async () => {
    // Its own data folder: a new qrels version re-scores every scored submission in the database.
    const server = await start(
      stub('hang-first-rescore', `(attempt) => (attempt === 1 ? 'hang' : 'answer')`),
      30,
      join(comp.dir, 'rescore-board'),
    )
    try {
      const id = await submit(server, 'rescore-team')
      const killWhile = async (what: string, probe: () => Promise<boolean>): Promise<void> => {
        process.kill(
          await until(what, async () =>
            (await probe()) ? server.supervisor.workerPid : undefined,
          ),
          'SIGKILL',
        )
      }
      await killWhile(
        'the worker to take the job',
        async () => (await row(server, id)).state === 'scoring',
      )
      expect(await finished(server, id)).toMatchObject({ state: 'scored', attempts: 2 })
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
      const job = async () =>
        server.ctx.db.selectFrom('rescores').selectAll().executeTakeFirstOrThrow()
      await killWhile(
        'the worker to take the re-scoring job',
        async () => (await job()).state === 'scoring',
      )
      const done = await until('the re-scoring job to finish', async () =>
        (await job()).state === 'done' ? job() : undefined,
      )
      expect(done).toMatchObject({ attempts: 2, reason: null, submission_id: id })
      expect(await row(server, id)).toMatchObject({ state: 'scored', attempts: 2 })
      const scores = await server.ctx.db
        .selectFrom('scores')
        .select(['version', 'qrels_version'])
        .where('submission_id', '=', id)
        .orderBy('version')
        .execute()
      expect(scores).toEqual([
        { version: 1, qrels_version: 1 },
        { version: 2, qrels_version: 2 },
      ])
    } finally {
      await server.close()
    }
  })
  it('a re-score that fails on every attempt is shown to organizers with its reason; the old score stays', async () => {
    const marker = join(comp.dir, 'die-on-rescore')
    const server = await start(
      stub(
        'die-on-rescore',
        `() => (process.getBuiltinModule('node:fs').existsSync(${JSON.stringify(marker)}) ? 'die' : 'answer')`,
      ),
      30,
      join(comp.dir, 'failed-rescore-board'),
    )
    try {
      const id = await submit(server, 'failed-rescore-team')
      expect(await finished(server, id)).toMatchObject({ state: 'scored' })
      writeFileSync(marker, '')
      const track = server.ctx.competition.tracks.find((t) => t.id === 'dl')!
      const phase = server.ctx.competition.phases.find((p) => p.id === 'dev')!
      await addQrelsVersion(server.ctx, {
        track,
        phase,
        bytes: readFileSync(join(comp.dir, 'dl', 'qrels-dev.txt')),
        note: 'v2',
        userId: 'org',
      })
      const job = async () =>
        server.ctx.db.selectFrom('rescores').selectAll().executeTakeFirstOrThrow()
      const failed = await until('the re-scoring job to fail', async () =>
        (await job()).state === 'failed' ? job() : undefined,
      )
      expect(failed.reason).toMatch(/^the scoring worker died 2 times on this run/)
      expect(await scoreVersions(server, id)).toEqual([1])
      await createOrganizer(server.ctx.db, 'org-f', 'organizer-secret-1', new Date())
      const org = new Client(server.app, 'org-f')
      expect((await org.login('org-f', 'organizer-secret-1')).status).toBe(303)
      const page = (await org.get('/org')).text
      expect(page).toContain('<h2>Re-scoring</h2>')
      expect(page).toContain(
        `<td>dl</td><td>dev</td><td>2</td><td>0</td><td>0</td><td>0</td><td>1</td>`,
      )
      expect(page).toContain(
        `submission <a href="/submissions/${id}">${id}</a> of failed-rescore-team: ${failed.reason}`,
      )
    } finally {
      await server.close()
    }
  })
  it('a worker that dies on every attempt fails the job after maxAttempts, not charged', async () => {
    const server = await start(stub('always-die', `() => 'die'`))
    try {
      const id = await submit(server, 'die-team')
      const r = await finished(server, id)
      expect(r).toMatchObject({
        state: 'failed',
        attempts: 2,
        charged: 0,
        reason: 'the scoring worker died 2 times on this run; not charged',
      })
      expect(await scoreVersions(server, id)).toEqual([])
      // The organizer sees it with its reason, and may queue it again (CSRF-protected).
      await createOrganizer(server.ctx.db, 'org-d', 'organizer-secret-2', new Date())
      const org = new Client(server.app, 'org-d')
      expect((await org.login('org-d', 'organizer-secret-2')).status).toBe(303)
      const page = (await org.get('/org')).text
      expect(page).toContain('<h2>Scoring</h2>')
      expect(page).toContain(
        `<td><a href="/submissions/${id}">${id}</a></td><td>die-team</td><td>dl</td><td>dev</td><td>2</td><td class="error">the scoring worker died 2 times on this run; not charged</td>`,
      )
      const requeue = (csrf: string) => org.post(`/org/submissions/${id}/requeue`, { _csrf: csrf })
      expect((await requeue('forged')).status, 'CSRF').toBe(403)
      expect((await row(server, id)).state).toBe('failed')
      const member = new Client(server.app, 'nobody')
      expect(
        (await member.request(`/org/submissions/${id}/requeue`, { method: 'POST' })).status,
      ).not.toBe(200)
      expect((await requeue(org.csrf)).status).toBe(200)
      const again = await until(
        'the job to be taken again',
        async () => {
          const r = await row(server, id)
          return r.attempts > 0 && r.state === 'failed' ? r : undefined
        },
        30_000,
      )
      expect(again).toMatchObject({ state: 'failed', attempts: 2, charged: 0 })
    } finally {
      await server.close()
    }
  })
  it('a job past the time limit is retried, then fails visibly and is not charged; the next job still runs', async () => {
    const marker = JSON.stringify(join(comp.dir, 'hung-twice'))
    const server = await start(
      stub(
        'hang-first-jobs',
        `() => { const fs = process.getBuiltinModule('node:fs'); const n = fs.existsSync(${marker}) ? Number(fs.readFileSync(${marker}, 'utf8')) : 0; if (n >= 2) return 'answer'; fs.writeFileSync(${marker}, String(n + 1)); return 'hang' }`,
      ),
      1,
    )
    try {
      const slow = await submit(server, 'slow-team')
      expect(await finished(server, slow, 30_000)).toMatchObject({
        state: 'failed',
        attempts: 2,
        charged: 0,
        reason: 'time limit exceeded (1 s, attempt 2 of 2); not charged',
      })
      const next = await submit(server, 'slow-team-2')
      expect(await finished(server, next, 30_000)).toMatchObject({ state: 'scored', charged: 1 })
    } finally {
      await server.close()
    }
  })
  it('restart: a job left scoring by a stopped server is queued again and scored once', async () => {
    const first = await start(stub('hang', `() => 'hang'`))
    const id = await submit(first, 'restart-team')
    await until('the job to be scoring', async () =>
      (await row(first, id)).state === 'scoring' ? true : undefined,
    )
    await first.close()
    const second = await start(stub('answer', `() => 'answer'`))
    try {
      expect(await finished(second, id)).toMatchObject({ state: 'scored', attempts: 2 })
      expect(await scoreVersions(second, id)).toEqual([1])
    } finally {
      await second.close()
    }
  })
})

describe('quotas and upload limits over HTTP', () => {
  it('two uploads at once with one submission left: one is taken, the other refused (429)', async () => {
    const competition = loadCompetition(comp.config)
    const server = await startServer({
      competition: {
        ...competition,
        limits: { ...competition.limits, perDay: 1, concurrent: 10 },
        tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
      },
      dataDir: join(comp.dir, 'quota-race'),
      workerModule: stub('quota-race-worker', `() => 'answer'`),
    })
    try {
      const teamId = await createTeam(server.ctx.db, 'race-team', new Date())
      const small = Buffer.from(runSubset(comp.runs.bm25, (q) => q <= 10))
      const both = await Promise.all(
        ['a.run', 'b.run'].map((name) =>
          submitRun(server.ctx, {
            teamId,
            userId: null,
            track: 'dl',
            phase: 'dev',
            name,
            metadata: { kind: 'automatic' },
            body: Readable.from([small]),
          }),
        ),
      )
      expect(both.map((o) => o.kind).sort()).toEqual(['accepted', 'rejected'])
      expect(both.find((o) => o.kind === 'rejected')).toMatchObject({
        status: 429,
        message: 'your team used its 1 submissions of the last 24 hours for track dl',
      })
      const rows = await server.ctx.db
        .selectFrom('submissions')
        .select('id')
        .where('team_id', '=', teamId)
        .execute()
      expect(rows).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('per-day and concurrent limits refuse with 429; failed runs are not charged; 413 past the byte limit', async () => {
    const competition = loadCompetition(comp.config)
    const server = await startServer({
      competition: {
        ...competition,
        limits: { ...competition.limits, perDay: 2, concurrent: 1 },
        upload: { ...competition.upload, maxBytes: 50_000 },
        tracks: competition.tracks.map((t) => ({ ...t, baselines: {} })),
      },
      dataDir: join(comp.dir, 'quota-board'),
      workerModule: stub('quota-worker', `() => 'answer'`),
    })
    try {
      const teamId = await createTeam(server.ctx.db, 'quota-team', new Date())
      const small = Buffer.from(runSubset(comp.runs.bm25, (q) => q <= 10))
      expect(small.length).toBeLessThan(50_000)
      const go = async () =>
        submitRun(server.ctx, {
          teamId,
          userId: null,
          track: 'dl',
          phase: 'dev',
          name: 'r.run',
          metadata: { kind: 'automatic' },
          body: Readable.from([small]),
        })
      const first = await go()
      expect(first.kind).toBe('accepted')
      const id1 = (first as { id: string }).id
      await until('the first job to finish', async () =>
        (await row(server, id1)).state === 'scored' ? true : undefined,
      )
      await server.ctx.db
        .updateTable('submissions')
        .set({ state: 'failed', charged: 0, reason: 'test: a failed run' })
        .where('id', '=', id1)
        .execute()
      const second = await go()
      expect(second.kind, 'a failed run does not count').toBe('accepted')
      const busy = await go()
      expect(busy).toMatchObject({ kind: 'rejected', status: 429 })
      expect((busy as { message: string }).message).toMatch(/queued or scoring/)
      await until('the second job to finish', async () =>
        (await row(server, (second as { id: string }).id)).state === 'scored' ? true : undefined,
      )
      expect((await go()).kind).toBe('accepted')
      await until('no job queued', async () =>
        (
          await server.ctx.db
            .selectFrom('submissions')
            .select('id')
            .where('state', 'in', ['queued', 'scoring'])
            .execute()
        ).length === 0
          ? true
          : undefined,
      )
      const over = await go()
      expect(over).toMatchObject({ kind: 'rejected', status: 429 })
      expect((over as { message: string }).message).toBe(
        'your team used its 2 submissions of the last 24 hours for track dl',
      )
      const charged = await server.ctx.db
        .selectFrom('submissions')
        .select(['charged'])
        .where('team_id', '=', teamId)
        .execute()
      expect(charged.map((c) => c.charged).sort()).toEqual([0, 1, 1])
      const big = await submitRun(server.ctx, {
        teamId: await createTeam(server.ctx.db, 'big-team', new Date()),
        userId: null,
        track: 'dl',
        phase: 'dev',
        name: 'r.run',
        metadata: { kind: 'automatic' },
        body: createReadStream(comp.runs.bm25),
      })
      expect(big).toEqual({
        kind: 'rejected',
        status: 413,
        message: 'upload limit: the upload is over 50000 bytes',
      })
    } finally {
      await server.close()
    }
  })
})
