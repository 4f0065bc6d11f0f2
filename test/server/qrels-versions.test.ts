/**
 * Qrels versions, in-process on real SQLite with the real scoring worker: the organizer adds a
 * new qrels version, every scored submission is re-scored as a new score version (the old one
 * kept), the board equals `trecscore score` against the new qrels, the rank changes are served
 * as a diff (page and API), hidden phases keep their diff hidden, and only organizers can add
 * a version.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { cli } from '../cli/helpers.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, type TestCompetition } from './helpers.js'

let comp: TestCompetition
let server: RunningServer
let org: Client
let a: Client
let b: Client
let anon: Client
const ids: Record<string, string> = {}
interface Entry {
  team: string
  run: string
  rank: number
  primary: number
  columns: Record<string, number>
}
let v1: Entry[] = []

/** New dev qrels: the bm25 run's top 10 documents of each dev query are the relevant ones. */
function bm25Qrels(): string {
  const seen = new Map<string, number>()
  const out: string[] = []
  for (const line of readFileSync(comp.runs.bm25, 'utf8').split('\n')) {
    const [q, , doc] = line.split(/\s+/)
    if (!q || Number(q.slice(1)) > 15) continue
    const n = seen.get(q) ?? 0
    if (n < 10) out.push(`${q} 0 ${doc} ${n < 3 ? 2 : 1}`)
    seen.set(q, n + 1)
  }
  return out.join('\n') + '\n'
}

async function addVersion(
  c: Client,
  track: string,
  phase: string,
  content: string,
  note = 'after assessment',
): Promise<{ status: number; text: string }> {
  const fd = new FormData()
  fd.set('track', track)
  fd.set('phase', phase)
  fd.set('note', note)
  fd.set('qrels', new Blob([content]), 'qrels.txt')
  return c.request(`/org/qrels?_csrf=${encodeURIComponent(c.csrf)}`, { method: 'POST', body: fd })
}

async function settled(track: string, phase: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const board = await org.json<{ rescoring: number }>(`/api/v1/boards/${track}/${phase}`)
    if (board.body.rescoring === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('re-scoring did not finish')
}

beforeAll(async () => {
  comp = makeCompetition()
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  a = await joinTeam(server.app, org, 'Team A', 'alice')
  b = await joinTeam(server.app, org, 'Team B', 'bob')
  anon = new Client(server.app, 'anonymous')
  for (const [key, c, phase, file] of [
    ['aDense', a, 'dev', comp.runs.dense],
    ['bHybrid', b, 'dev', comp.runs.hybrid],
    ['aTest', a, 'test', comp.runs.dense],
  ] as const) {
    const r = await c.uploadApi('dl', phase, file.split('/').pop()!, readFileSync(file))
    expect(r.status).toBe(202)
    ids[key] = r.body.id!
    expect((await waitDone(c, ids[key])).state).toBe('scored')
  }
  for (const phase of ['dev', 'test']) {
    for (
      let i = 0;
      i < 600 &&
      (
        await server.ctx.db
          .selectFrom('submissions')
          .select('id')
          .where('phase', '=', phase)
          .where('state', '!=', 'scored')
          .execute()
      ).length;
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 50))
  }
  v1 = (await anon.json<{ entries: Entry[] }>('/api/v1/boards/dl/dev')).body.entries
  expect(v1.map((e) => e.team)).toEqual(['Team B', 'Team A', 'Organizers (baselines)'])
}, 120_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

describe('qrels versions', () => {
  it('only organizers add a version; CSRF applies; a file that is not qrels is refused and changes nothing', async () => {
    expect((await addVersion(a, 'dl', 'dev', bm25Qrels())).status, 'a member').toBe(404)
    const forged = new FormData()
    forged.set('track', 'dl')
    expect(
      (await org.request('/org/qrels?_csrf=forged', { method: 'POST', body: forged })).status,
      'CSRF',
    ).toBe(403)
    const bad = await addVersion(org, 'dl', 'dev', 'q01 0 doc1\n')
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('not a valid qrels file: qrels.txt:1:')
    const nul = await addVersion(org, 'dl', 'dev', bm25Qrels(), 'bad\u0000note')
    expect(nul.status, 'a NUL in the note (Postgres text cannot hold it)').toBe(400)
    expect(nul.text).toContain('the note may not contain a NUL character')
    expect(await server.ctx.db.selectFrom('qrels_versions').selectAll().execute()).toEqual([])
    expect(await server.ctx.db.selectFrom('rescores').selectAll().execute()).toEqual([])
  })

  it('a new version re-scores every scored submission as a new score version; the old one is kept; the board equals `trecscore score`', async () => {
    const qrels = bm25Qrels()
    const r = await addVersion(org, 'dl', 'dev', qrels)
    expect(r.status).toBe(200)
    expect(r.text).toContain(
      'Qrels version 2 of dl / dev added; 3 submission(s) queued for re-scoring.',
    )
    await settled('dl', 'dev')
    const file = join(comp.dir, 'qrels-v2.txt')
    writeFileSync(file, qrels)
    const board = await anon.json<{ qrelsVersion: number; rescoring: number; entries: Entry[] }>(
      '/api/v1/boards/dl/dev',
    )
    expect(board.body).toMatchObject({ qrelsVersion: 2, rescoring: 0 })
    expect(
      board.body.entries[0]!.team,
      'the bm25 baseline wins under qrels built from its own top 10',
    ).toBe('Organizers (baselines)')
    for (const [run, team] of [
      [comp.runs.dense, 'Team A'],
      [comp.runs.hybrid, 'Team B'],
      [comp.runs.bm25, 'Organizers (baselines)'],
    ] as const) {
      const out = cli(['score', '--preset', 'dl21-passage', '--qrels', file, run, '-f', 'json'])
      expect(out.code).toBe(0)
      const agg = (
        JSON.parse(out.stdout) as {
          results: { runs: { aggregates: Record<string, { value: number }> }[] }
        }
      ).results.runs[0]!.aggregates
      const e = board.body.entries.find((x) => x.team === team)!
      for (const m of ['nDCG@10', 'AP', 'RR'])
        expect(e.columns[m], `${team} ${m}`).toBe(agg[m]!.value)
    }
    const s = await a.json<{
      versions: {
        version: number
        qrelsVersion: number
        columns: Record<string, number>
        provenance: { qrelsSha256: string }
      }[]
    }>(`/api/v1/submissions/${ids['aDense']}`)
    expect(s.body.versions.map((v) => [v.version, v.qrelsVersion])).toEqual([
      [2, 2],
      [1, 1],
    ])
    expect(s.body.versions[1]!.columns['nDCG@10'], 'version 1 is kept as it was').toBe(
      v1.find((e) => e.team === 'Team A')!.primary,
    )
    expect(s.body.versions[0]!.provenance.qrelsSha256).toBe(
      createHash('sha256').update(qrels).digest('hex'),
    )
    expect((await a.get(`/submissions/${ids['aDense']}`)).text).toContain(
      'Score version 2 (qrels version 2, ',
    )
    const test = await server.ctx.db
      .selectFrom('scores')
      .select('qrels_version')
      .where('submission_id', '=', ids['aTest']!)
      .execute()
    expect(
      test.map((x) => x.qrels_version),
      'the test phase is untouched',
    ).toEqual([1])
  })

  it('the rank changes are served as a diff (API and page), consistent with both boards', async () => {
    const d = await anon.json<{
      from: number
      to: number
      released: boolean
      rows: {
        team: string
        baseline: boolean
        from: { rank: number; primary: number } | null
        to: { rank: number; primary: number } | null
        rankChange: number | null
      }[]
    }>('/api/v1/boards/dl/dev/diff')
    expect(d.status).toBe(200)
    expect(d.body).toMatchObject({ from: 1, to: 2, released: true })
    const v2 = (await anon.json<{ entries: Entry[] }>('/api/v1/boards/dl/dev')).body.entries
    expect(d.body.rows.map((r) => r.team)).toEqual(v2.map((e) => e.team))
    for (const r of d.body.rows) {
      const x = v1.find((e) => e.team === r.team)!
      const y = v2.find((e) => e.team === r.team)!
      expect(r.from).toEqual({ rank: x.rank, primary: x.primary, run: x.run })
      expect(r.to).toEqual({ rank: y.rank, primary: y.primary, run: y.run })
      expect(r.rankChange).toBe(x.rank - y.rank)
    }
    expect(d.body.rows[0]).toMatchObject({
      team: 'Organizers (baselines)',
      baseline: true,
      rankChange: 2,
    })
    const reverse = await anon.json<{ rows: { rankChange: number }[] }>(
      '/api/v1/boards/dl/dev/diff?from=2&to=1',
    )
    expect(reverse.body.rows.map((r) => r.rankChange).sort()).toEqual(
      d.body.rows.map((r) => -r.rankChange!).sort(),
    )
    const page = await anon.get('/boards/dl/dev/diff')
    expect(page.status).toBe(200)
    expect(page.text).toContain('▲ 2')
    expect(page.text).toContain('qrels v1 → v2')
    expect((await anon.get('/boards/dl/dev')).text).toContain('Scored against qrels version 2.')
    expect((await anon.get('/api/v1/boards/dl/dev/diff?from=1&to=9')).status).toBe(400)
    expect((await anon.get('/api/v1/boards/plain/dev/diff')).status, 'one version only').toBe(400)
    expect((await anon.get('/api/v1/boards/nope/dev/diff')).status).toBe(404)
  })

  it('new submissions are scored against the newest version', async () => {
    const r = await b.uploadApi('dl', 'dev', 'bm25-again.run', readFileSync(comp.runs.bm25))
    expect(r.status).toBe(202)
    expect((await waitDone(b, r.body.id!)).state).toBe('scored')
    const s = await b.json<{ versions: { version: number; qrelsVersion: number }[] }>(
      `/api/v1/submissions/${r.body.id}`,
    )
    expect(s.body.versions.map((v) => [v.version, v.qrelsVersion])).toEqual([[1, 2]])
  })

  it('a hidden phase: re-scored too, but its diff shows nothing until release', async () => {
    const hidden =
      readFileSync(join(comp.dir, 'dl', 'qrels-test.txt'), 'utf8')
        .split('\n')
        .filter((l) => l && !/^q1[6-9] /.test(l))
        .join('\n') + '\n'
    const r = await addVersion(org, 'dl', 'test', hidden)
    expect(r.text).toContain(
      'Qrels version 2 of dl / test added; 2 submission(s) queued for re-scoring.',
    )
    await settled('dl', 'test')
    const before = await anon.json<{ released: boolean; rows: unknown[] }>(
      '/api/v1/boards/dl/test/diff',
    )
    expect(before.body).toMatchObject({ released: false, rows: [] })
    expect((await a.get('/boards/dl/test/diff')).text).not.toContain('Team A')
    expect((await org.post('/org/phases/test/release')).status).toBe(303)
    const after = await anon.json<{ released: boolean; rows: { team: string }[] }>(
      '/api/v1/boards/dl/test/diff',
    )
    expect(after.body.released).toBe(true)
    expect(after.body.rows.map((x) => x.team).sort()).toEqual(['Organizers (baselines)', 'Team A'])
  })
})
