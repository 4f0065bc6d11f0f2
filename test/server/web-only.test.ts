/**
 * A web process that holds no qrels: on Postgres with no scoring in it (`serve --workers 0`),
 * started from a config whose track data folders do not exist on its side (as on a web machine
 * that was never given them), next to a real `trecscore worker` process that holds them.
 * - it starts (the config is read without the data folders) and refuses uploads with a 503
 *   until a worker has published the topic lists, never checking a run without them;
 * - the worker publishes the topic lists and submits the baselines when it starts;
 * - the web process then checks uploads against the published topics (the team page hands the
 *   same list to the browser), the worker scores them, and the web process read no qrels file;
 * - a qrels version is refused by its organizer page (it would put qrels on the web machine) and
 *   added with `trecscore serve admin add-qrels` where the qrels are; the web's topic list
 *   follows the new version.
 * Postgres only by nature (listed in sqlite-only.ts); skipped, with the reason, without one.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer, createTeam } from '../../src/server/auth/accounts.js'
import { findPhase, findTrack, loadCompetition } from '../../src/server/config/load.js'
import { submitRun } from '../../src/server/submissions.js'
import { createTestDatabase, PG_SKIP_REASON } from './backend.js'
import { Client, joinTeam } from './client.js'
import { makeCompetition, ROOT } from './helpers.js'
import { submitAs, until } from './scoring-helpers.js'

const comp = makeCompetition()
const webDir = mkdtempSync(join(tmpdir(), 'trecscore-web-only-'))
const webConfig = join(webDir, 'competition.json')
// The same config on the web machine: its `data: "dl"` resolves to a folder that is not there.
writeFileSync(webConfig, readFileSync(comp.config))
const CLI = join(ROOT, 'bin', 'trecscore.js')
const ORG_PASSWORD = 'organizer-secret-1'

let url = ''
let web: RunningServer | undefined
let worker: ChildProcess | undefined
afterAll(async () => {
  worker?.kill('SIGKILL')
  await web?.close()
  comp.cleanup()
  rmSync(webDir, { recursive: true, force: true })
})

/** Start `trecscore worker`; resolves with what it printed once it takes jobs. */
function startWorker(): Promise<string> {
  const p = spawn(
    process.execPath,
    [
      CLI,
      'worker',
      '--config',
      comp.config,
      '--data',
      comp.data,
      '--db',
      url,
      '--log-format',
      'text',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  worker = p
  return new Promise((resolve, reject) => {
    let err = ''
    p.stderr!.on('data', (b: Buffer) => {
      err += b.toString()
      if (/topic list\(s\) published\)\n/.test(err)) resolve(err)
    })
    p.once('exit', (code) =>
      reject(new Error(`worker exited (${code}) before it was ready: ${err}`)),
    )
  })
}

const dev = (): { track: ReturnType<typeof findTrack>; phase: ReturnType<typeof findPhase> } => ({
  track: findTrack(web!.ctx.competition, 'dl'),
  phase: findPhase(web!.ctx.competition, 'dev'),
})

const qrelsDev = readFileSync(join(comp.dir, 'dl', 'qrels-dev.txt'), 'utf8')
const DEV_TOPICS = [
  ...new Set(
    qrelsDev
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ')[0]),
  ),
]

describe.skipIf(PG_SKIP_REASON !== null)(
  'a web process without the qrels folder (Postgres)',
  () => {
    beforeAll(async () => {
      url = await createTestDatabase()
    })

    it('starts from a config whose data folders it does not have, and refuses uploads until a worker published the topics', async () => {
      expect(() => loadCompetition(webConfig)).toThrow(/data folder .*dl does not exist/)
      web = await startServer({
        competition: loadCompetition(webConfig, 'web'),
        dataDir: comp.data,
        db: url,
        workers: 0,
      })
      expect(web.ctx.holdsQrels).toBe(false)
      const out = await submitRun(web.ctx, {
        teamId: await createTeam(web.ctx.db, 'Early', new Date()),
        userId: null,
        track: 'dl',
        phase: 'dev',
        name: 'bm25.run',
        metadata: { kind: 'automatic' },
        body: createReadStream(comp.runs.bm25),
      })
      expect(out).toMatchObject({ kind: 'rejected', status: 503 })
      expect((out as { message: string }).message).toMatch(
        /topic list of track dl, phase dev \(qrels version 1\) is not published yet/,
      )
      expect(await web.ctx.db.selectFrom('submissions').select('id').execute()).toEqual([])
    })

    it('a worker publishes the topic lists and submits the baselines; the web checks and the worker scores', async () => {
      const said = await startWorker()
      // dl and plain, public phase dev (a hidden phase has no topic list).
      expect(said).toMatch(/; 2 topic list\(s\) published\)/)
      const { track, phase } = dev()
      const topics = await web!.ctx.topics.topics(track!, phase!)
      expect([...topics!].sort()).toEqual(DEV_TOPICS.sort())
      // The team page hands the browser's check the same list.
      await createOrganizer(web!.ctx.db, 'org', ORG_PASSWORD, new Date())
      const org = new Client(web!.app, 'org')
      expect((await org.login('org', ORG_PASSWORD)).status).toBe(303)
      const member = await joinTeam(web!.app, org, 'Team A', 'alice')
      const page = await member.get('/team')
      const list = /data-topics="([^"]*)"/.exec(page.text)?.[1]?.replaceAll('&quot;', '"')
      expect(JSON.parse(list ?? 'null')?.sort()).toEqual(DEV_TOPICS.sort())
      // An upload is checked and stored by the web, scored by the worker.
      const id = await submitAs(web!, 'Team A', comp.runs.bm25)
      const row = await until(
        'the upload to be scored',
        async () => {
          const r = await web!.ctx.db
            .selectFrom('submissions')
            .select(['state', 'reason'])
            .where('id', '=', id)
            .executeTakeFirst()
          return r && r.state !== 'queued' && r.state !== 'scoring' ? r : undefined
        },
        60_000,
      )
      expect(row).toEqual({ state: 'scored', reason: null })
      const score = await web!.ctx.db
        .selectFrom('scores')
        .select(['primary_value', 'per_query'])
        .where('submission_id', '=', id)
        .executeTakeFirstOrThrow()
      expect(JSON.parse(score.per_query)).toHaveLength(DEV_TOPICS.length)
      // The baselines the web skipped were submitted by the worker.
      const baselines = await web!.ctx.db
        .selectFrom('submissions')
        .innerJoin('teams', 'teams.id', 'submissions.team_id')
        .select(['submissions.track', 'submissions.phase'])
        .where('teams.is_baseline', '=', 1)
        .execute()
      expect(baselines.map((b) => `${b.track}/${b.phase}`).sort()).toEqual(['dl/dev', 'dl/test'])
      // The web process read no qrels file (it could not have: the folder is not there).
      expect(web!.ctx.topics.reads).toBe(0)
    }, 120_000)

    it('a qrels version is added where the qrels are, never through the web; the web follows it', async () => {
      const org = new Client(web!.app, 'org')
      await org.login('org', ORG_PASSWORD)
      const fd = new FormData()
      fd.set('track', 'dl')
      fd.set('phase', 'dev')
      fd.set('qrels', new Blob([qrelsDev]), 'qrels.txt')
      const refused = await org.request(`/org/qrels?_csrf=${encodeURIComponent(org.csrf)}`, {
        method: 'POST',
        body: fd,
      })
      expect(refused.status).toBe(403)
      expect(refused.text).toContain('this web process holds no qrels')
      // Both dl/dev submissions (the upload and the baseline the worker submitted) must be
      // scored first: a submission still queued is scored against the newest version anyway,
      // so add-qrels does not count it among those queued for re-scoring.
      await until(
        'both dl/dev submissions to be scored',
        async () => {
          const rows = await web!.ctx.db
            .selectFrom('submissions')
            .select('state')
            .where('track', '=', 'dl')
            .where('phase', '=', 'dev')
            .execute()
          return rows.length === 2 && rows.every((r) => r.state === 'scored') ? rows : undefined
        },
        60_000,
      )
      // Version 2 drops the first topic; added with the CLI on the worker's side.
      const first = DEV_TOPICS[0]!
      const v2 = join(comp.dir, 'qrels-dev-v2.txt')
      writeFileSync(
        v2,
        qrelsDev
          .split('\n')
          .filter((l) => l && l.split(' ')[0] !== first)
          .join('\n') + '\n',
      )
      const add = spawnSync(
        process.execPath,
        [
          CLI,
          'serve',
          'admin',
          'add-qrels',
          '--config',
          comp.config,
          '--data',
          comp.data,
          '--db',
          url,
          '--track',
          'dl',
          '--phase',
          'dev',
          '--name',
          'org',
          '--note',
          'after assessment',
          v2,
        ],
        { encoding: 'utf8' },
      )
      expect(add.stderr).toBe('')
      expect(add.stdout).toMatch(
        /^qrels version 2 of dl \/ dev added; 2 submission\(s\) queued for re-scoring\n$/,
      )
      expect(add.status).toBe(0)
      const { track, phase } = dev()
      const topics = await web!.ctx.topics.topics(track!, phase!)
      expect([...topics!].sort()).toEqual(DEV_TOPICS.filter((t) => t !== first).sort())
      expect(web!.ctx.topics.reads).toBe(0)
    }, 60_000)
  },
)
