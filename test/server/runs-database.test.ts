/**
 * `serve --runs database` end to end, on this run's backend (SQLite: the in-process supervisor;
 * Postgres: the queue's worker): uploads (a one-file run, a per-domain RETECO 2a run, the
 * configured baseline) are stored as chunks and scored by the worker to the same numbers as
 * with the directory store, and the data folder holds no `runs/` (nor a job's leftover copy);
 * a damaged stored run fails its job with the reason; backup + restore round-trip into either
 * store, byte for byte, with identical boards; chunks left without a row are swept at start.
 * On Postgres, a web process (`--workers 0`) and a `trecscore worker` process, both `--runs
 * database`, on data folders of their own: no folder is shared, and neither holds a run.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { type Competition, loadCompetition } from '../../src/server/config/load.js'
import { openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { backup, restore } from '../../src/server/ops/backup.js'
import { DatabaseRunStore } from '../../src/server/storage/database-store.js'
import type { RunStoreKind } from '../../src/server/storage/run-store.js'
import { RunStores } from '../../src/server/storage/run-stores.js'
import { cli } from '../cli/helpers.js'
import { BACKEND, createTestDatabase, dbArgs, dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, RETECO, ROOT, type TestCompetition } from './helpers.js'

let comp: TestCompetition
let competition: Competition
const dense = (): Buffer => readFileSync(comp.runs.dense)
const perDomain = (): Record<string, string> => {
  const dir = join(RETECO, 'runs', '2a_random')
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]))
}
const BOARDS = ['/api/v1/boards/dl/dev', '/api/v1/boards/reteco-2a/dev']

beforeAll(() => {
  comp = makeCompetition({ track2: true })
  competition = loadCompetition(comp.config)
})
afterAll(() => comp?.cleanup())

async function start(data: string, runs: RunStoreKind): Promise<RunningServer> {
  return startServer({ competition, dataDir: data, runs, ...(await dbOptions(data)) })
}

interface Uploaded {
  readonly server: RunningServer
  readonly team: Client
  readonly ids: { dense: string; perDomain: string }
}

/** A server on `data` with `runs`, an organizer, a team, and its two uploads scored. */
async function uploadBoth(data: string, runs: RunStoreKind): Promise<Uploaded> {
  const server = await start(data, runs)
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  const org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  const team = await joinTeam(server.app, org, 'Team A', 'alice')
  const a = await team.uploadApi('dl', 'dev', 'dense.run', dense())
  expect(a.status, JSON.stringify(a.body)).toBe(202)
  const b = await team.uploadApiFiles('reteco-2a', 'dev', '2a_random', perDomain())
  expect(b.status, JSON.stringify(b.body)).toBe(202)
  for (const id of [a.body.id!, b.body.id!])
    expect(await waitDone(team, id, 60_000)).toMatchObject({ state: 'scored', reason: null })
  return { server, team, ids: { dense: a.body.id!, perDomain: b.body.id! } }
}

async function scoreOf(server: RunningServer, id: string): Promise<unknown> {
  return server.ctx.db
    .selectFrom('scores')
    .select(['primary_value', 'columns', 'per_query'])
    .where('submission_id', '=', id)
    .executeTakeFirstOrThrow()
}

async function boardsOf(server: RunningServer): Promise<Record<string, string>> {
  const org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  const out: Record<string, string> = {}
  for (const b of BOARDS) {
    const r = await org.get(b)
    expect(r.status, `${b}: ${r.text}`).toBe(200)
    out[b] = r.text
  }
  return out
}

async function waitEmpty(dir: string): Promise<void> {
  const end = Date.now() + 10_000
  while (readdirSync(dir).length > 0) {
    if (Date.now() > end) throw new Error(`${dir} still holds ${readdirSync(dir).join(', ')}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('serve --runs database', () => {
  let db: Uploaded
  let backupFile = ''

  it('stores uploads as chunks, scores them as the directory store does, keeps no runs/ folder', async () => {
    const dir = await uploadBoth(join(comp.dir, 'dir-store'), 'directory')
    db = await uploadBoth(comp.data, 'database')
    try {
      // The same numbers, whichever store the worker read from.
      expect(await scoreOf(db.server, db.ids.dense)).toEqual(
        await scoreOf(dir.server, dir.ids.dense),
      )
      expect(await scoreOf(db.server, db.ids.perDomain)).toEqual(
        await scoreOf(dir.server, dir.ids.perDomain),
      )
      const rows = await db.server.ctx.db
        .selectFrom('submissions')
        .select(['id', 'file', 'state'])
        .orderBy('created_at')
        .execute()
      // The two uploads and the dl track's baseline (for both phases), every one in the database.
      expect(rows.length).toBe(4)
      for (const r of rows) expect(r.file).toBe(`db:runs/${r.id}/${r.file.split('/').pop()}`)
      expect(rows.find((r) => r.id === db.ids.perDomain)!.file).toBe(
        `db:runs/${db.ids.perDomain}/2a_random`,
      )
      const chunks = await db.server.ctx.db
        .selectFrom('run_chunks')
        .select(['path', 'seq'])
        .where('submission_id', '=', db.ids.perDomain)
        .orderBy('path')
        .execute()
      expect(chunks.map((c) => c.path)).toEqual(
        Object.keys(perDomain())
          .sort()
          .map((f) => `2a_random/${f}`),
      )
      expect(existsSync(join(comp.data, 'runs'))).toBe(false)
      expect(existsSync(join(comp.dir, 'dir-store', 'runs', dir.ids.dense, 'dense.run'))).toBe(true)
      // The job's copy is gone from the process's tmp folder once it ended.
      await waitEmpty(db.server.ctx.tmpDir)
    } finally {
      await dir.server.close()
    }
  }, 180_000)

  it('a damaged stored run fails its job with the reason, not charged', async () => {
    const ctx = db.server.ctx
    await ctx.db
      .updateTable('run_chunks')
      .set({ data: Buffer.from('q1 Q0 forged 1 9.0 x\n') })
      .where('submission_id', '=', db.ids.dense)
      .where('seq', '=', 0)
      .execute()
    await ctx.db
      .updateTable('submissions')
      .set({ state: 'queued' })
      .where('id', '=', db.ids.dense)
      .execute()
    ctx.kick()
    const done = await waitDone(db.team, db.ids.dense, 60_000)
    expect(done.state).toBe('failed')
    expect(done.reason).toMatch(
      /^the stored run is damaged: its sha256 is [0-9a-f]{12}…, the upload's was [0-9a-f]{12}…$/,
    )
    // Put right again for the backup below (the run's own bytes, the row as it was).
    const bytes = dense()
    await ctx.db.deleteFrom('run_chunks').where('submission_id', '=', db.ids.dense).execute()
    await ctx.runs.database.putFile(db.ids.dense, 'dense.run', comp.runs.dense)
    await ctx.db
      .updateTable('submissions')
      .set({ state: 'scored', reason: null, charged: 1 })
      .where('id', '=', db.ids.dense)
      .execute()
    const opened = await ctx.runs.open(
      await ctx.db
        .selectFrom('submissions')
        .select(['id', 'file', 'run_sha256'])
        .where('id', '=', db.ids.dense)
        .executeTakeFirstOrThrow(),
      ctx.tmpDir,
    )
    expect(readFileSync(opened.path).equals(bytes)).toBe(true)
    await opened.release()
  }, 120_000)

  it('backup + restore round-trip into either store: the same bytes, the same boards', async () => {
    const boards = await boardsOf(db.server)
    await db.server.close()
    backupFile = join(comp.dir, 'runs-db.backup.gz')
    const where = parseDbLocation((await dbOptions(comp.data)).db, comp.data)
    const made = await backup(where, comp.data, backupFile)
    // Every file of the four runs (the per-domain one has one per domain), as stored files.
    expect(made.files).toBe(3 + Object.keys(perDomain()).length)
    const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex')
    for (const runs of ['directory', 'database'] as const) {
      const data = join(comp.dir, `restored-${runs}`)
      const target = parseDbLocation((await dbOptions(data)).db, data)
      const r = await restore(target, data, backupFile, { runs })
      expect(r.files).toBe(made.files)
      const tdb = await openDatabase(target)
      try {
        const rows = await tdb
          .selectFrom('submissions')
          .select(['id', 'file', 'run_sha256'])
          .orderBy('id')
          .execute()
        expect(rows.length).toBe(4)
        for (const row of rows) expect(row.file.startsWith('db:runs/')).toBe(runs === 'database')
        expect(existsSync(join(data, 'runs'))).toBe(runs === 'directory')
        expect(
          await tdb
            .selectFrom('run_chunks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
            .then((x) => Number(x.n) > 0),
        ).toBe(runs === 'database')
        // Each run opens from its new store, checked against its sha256; the bytes are the upload's.
        const stores = new RunStores(tdb, data, runs)
        const denseRow = rows.find((x) => x.id === db.ids.dense)!
        const opened = await stores.open(denseRow, join(data, 'tmp'))
        expect(sha(readFileSync(opened.path))).toBe(sha(dense()))
        await opened.release()
        const folder = await stores.open(
          rows.find((x) => x.id === db.ids.perDomain)!,
          join(data, 'tmp'),
        )
        for (const [f, text] of Object.entries(perDomain()))
          expect(readFileSync(join(folder.path, f), 'utf8')).toBe(text)
        await folder.release()
        // Chunks a process left without their row two hours ago: swept when the server starts.
        const twoHoursAgo = new DatabaseRunStore(tdb, () => new Date(Date.now() - 7_200_000))
        await twoHoursAgo.putFile('orphaned', 'run.txt', comp.runs.bm25)
      } finally {
        await tdb.destroy()
      }
      const server = await start(data, runs)
      try {
        expect(await boardsOf(server)).toEqual(boards)
        expect(await server.ctx.runs.database.files('orphaned')).toEqual([])
      } finally {
        await server.close()
      }
    }
  }, 180_000)

  it('`serve restore --runs database` on the command line: said on its line, no runs/ folder', async () => {
    const data = join(comp.dir, 'restored-cli')
    const r = cli([
      'serve',
      'restore',
      '--data',
      data,
      ...(await dbArgs(data)),
      '--runs',
      'database',
      backupFile,
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /restored into .* \(runs in the database store\): \d+ row\(s\), \d+ file\(s\), every sha256 checked\n$/,
    )
    expect(existsSync(join(data, 'runs'))).toBe(false)
  })

  it('`--runs` takes directory or database, else exit 2 naming both', () => {
    const r = cli(['serve', '--config', comp.config, '--data', comp.data, '--runs', 'nfs'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("option '--runs <store>' argument 'nfs' is invalid")
    expect(r.stderr).toContain('expected directory or database')
    const help = cli(['worker', '--help'])
    expect(help.stdout).toMatch(/--runs <store>\s+where the baselines this worker submits/)
    expect(cli(['serve', '--help']).stdout).toMatch(
      /--runs <store>\s+where new uploads are stored: directory/,
    )
  })
})

describe.runIf(BACKEND === 'postgres')('web and worker on Postgres sharing no folder', () => {
  let worker: ChildProcess | undefined
  let web: RunningServer | undefined
  afterAll(async () => {
    worker?.kill('SIGKILL')
    await web?.close()
  })

  it('a web process and a worker with their own --data folders: the upload is scored, no runs/ anywhere', async () => {
    const url = await createTestDatabase()
    const webData = join(comp.dir, 'web-machine')
    const workerData = join(comp.dir, 'worker-machine')
    mkdirSync(workerData)
    web = await startServer({
      competition,
      dataDir: webData,
      db: url,
      workers: 0,
      runs: 'database',
    })
    const p = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'trecscore.js'),
        'worker',
        ...['--config', comp.config, '--data', workerData, '--db', url, '--runs', 'database'],
        ...['--log-format', 'text'],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    worker = p
    const said = await new Promise<string>((resolve, reject) => {
      let err = ''
      p.stderr!.on('data', (b: Buffer) => {
        err += b.toString()
        if (/topic list\(s\) published\)\n/.test(err)) resolve(err)
      })
      p.once('exit', (code) => reject(new Error(`worker exited (${code}): ${err}`)))
    })
    expect(said).toContain('runs in the database store')
    await createOrganizer(web.ctx.db, 'org', 'organizer-secret-1', new Date())
    const org = new Client(web.app, 'org')
    expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
    const team = await joinTeam(web.app, org, 'Team B', 'bob')
    const up = await team.uploadApi('dl', 'dev', 'dense.run', dense())
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    expect(await waitDone(team, up.body.id!, 60_000)).toMatchObject({
      state: 'scored',
      reason: null,
    })
    // The baselines the worker submitted went to the database too.
    const files = await web.ctx.db.selectFrom('submissions').select('file').execute()
    expect(files.length).toBe(3)
    for (const f of files) expect(f.file).toMatch(/^db:runs\//)
    for (const d of [webData, workerData]) expect(existsSync(join(d, 'runs')), d).toBe(false)
  }, 120_000)
})
