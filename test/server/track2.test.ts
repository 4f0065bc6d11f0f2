/**
 * RETECO Track 2 on the server, in-process on real SQLite with the real scoring worker: a
 * competition with a 2a and a 2c track (dev phase on the dev split, hidden test phase on the
 * train split of test/fixtures/reteco). Per-domain runs are uploaded as one file per domain
 * (API multipart and the team page's form), rejected uploads carry the report of `trecscore
 * validate --preset reteco-2a`, and every board number (the columns, the per-domain and the
 * turn-depth breakdowns) equals `trecscore score --preset reteco-2a|2c` on the same run folder.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { cli } from '../cli/helpers.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, RETECO, type TestCompetition } from './helpers.js'

const DATA = join(RETECO, 'data')
const DOMAINS = ['biology', 'drones', 'earth_science']

let comp: TestCompetition
let server: RunningServer
let org: Client
let a: Client
let b: Client
let anon: Client

/** The files of a fixture run folder, by name. */
function runFolder(run: string): Record<string, string> {
  const dir = join(RETECO, 'runs', run)
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]))
}

/** Write a run folder under the competition's temp folder (for the CLI); its path. */
function writeFolder(name: string, files: Record<string, string>): string {
  const dir = join(comp.dir, 'cli-runs', name)
  mkdirSync(dir, { recursive: true })
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text)
  return dir
}

interface CliReport {
  headline: { measure: string; value: number }
  diagnostics: Record<string, number | null>
  tables: { key: string; rows: { label: string; values: Record<string, number> }[] }[]
}

function score(preset: string, dir: string, split = 'dev', data = DATA): CliReport {
  const out = cli([
    'score',
    '--preset',
    preset,
    '--data',
    data,
    '--split',
    split,
    dir,
    '-f',
    'json',
  ])
  expect(out.code, out.stderr).toBe(0)
  return (JSON.parse(out.stdout) as { reports: CliReport[] }).reports[0]!
}

interface BoardJson {
  released: boolean
  domains: string[]
  turnDepths: string[]
  entries: {
    run: string | null
    submissionId: string | null
    team: string
    columns: Record<string, number | null>
    domains: Record<string, number | null> | null
    turnDepth: Record<string, number | null> | null
  }[]
}

/** Every number of a board entry equals the CLI's report: columns, per domain, by turn depth. */
function expectBoardEqualsCli(board: BoardJson, run: string, rep: CliReport): void {
  const e = board.entries.find((x) => x.run === run)
  expect(e, `${run} on the board`).toBeDefined()
  expect(e!.columns['nDCG@10']).toBe(rep.headline.value)
  expect(e!.columns['MRR']).toBe(rep.diagnostics['MRR'])
  expect(e!.columns['Recall@10']).toBe(rep.diagnostics['Recall@10'])
  const perDomain = rep.tables.find((t) => t.key === 'per_domain')!
  expect(board.domains).toEqual(perDomain.rows.map((r) => r.label))
  for (const row of perDomain.rows)
    expect(e!.domains![row.label], row.label).toBeCloseTo(row.values['nDCG@10']!, 12)
  const depth = rep.tables.find((t) => t.key === 'turn_depth')!
  expect(board.turnDepths).toEqual(depth.rows.map((r) => r.label))
  expect(board.turnDepths).toEqual(['T1', 'T2', 'T3', 'T4', 'T5+'])
  for (const row of depth.rows)
    expect(e!.turnDepth![row.label], row.label).toBeCloseTo(row.values['nDCG@10']!, 12)
}

/** A run of the train split (the hidden test phase): odd topics perfect, even ones a known non-relevant document first. */
function trainRun(domain: string): string {
  const d = join(DATA, 'track2_recor', domain)
  const gold = new Map<string, string[]>()
  for (const line of readFileSync(join(d, 'qrels_train.txt'), 'utf8').split('\n')) {
    const [t, , doc] = line.split('\t')
    if (t && doc) gold.set(t, [...(gold.get(t) ?? []), doc])
  }
  const docs = readFileSync(join(d, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { doc_id: string }).doc_id)
  let out = ''
  ;[...gold].forEach(([t, g], i) => {
    const ranked =
      i % 2 ? g : [...docs.filter((x) => !g.includes(x)).slice(0, 3 + (i % 5)), ...g.reverse()]
    ranked.forEach((doc, r) => {
      out += `${t}\tQ0\t${doc}\t${r + 1}\t${(100 - r).toFixed(2)}\ttrain\n`
    })
  })
  return out
}

beforeAll(async () => {
  comp = makeCompetition({ track2: true, config: { limits: { perDay: 50 } } })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  a = await joinTeam(server.app, org, 'Team A', 'ann')
  b = await joinTeam(server.app, org, 'Team B', 'ben')
  anon = new Client(server.app, 'anonymous')
  await anon.get('/')
}, 60_000)

afterAll(async () => {
  await server?.close()
  comp?.cleanup()
})

async function submissionCount(): Promise<number> {
  const r = await server.ctx.db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

describe('RETECO Track 2 (2a, 2c): per-domain runs end to end', () => {
  it('2a, dev: API multipart and the team form upload per-domain runs; the board equals `trecscore score --preset reteco-2a`', async () => {
    const random = runFolder('2a_random')
    const up = await a.uploadApiFiles('reteco-2a', 'dev', '2a_random', random)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    expect((await waitDone(a, up.body.id!)).state).toBe('scored')
    const ties = runFolder('2a_ties_rank')
    const form = await b.uploadFormFiles('reteco-2a', 'dev', '2a_ties_rank', ties)
    expect(form.status, form.text).toBe(303)
    const id = form.headers.get('location')!.split('/').pop()!
    expect((await waitDone(b, id)).state).toBe('scored')
    const board = (await anon.json<BoardJson>('/api/v1/boards/reteco-2a/dev')).body
    expect(board.entries.map((e) => e.run).sort()).toEqual(['2a_random', '2a_ties_rank'])
    expectBoardEqualsCli(board, '2a_random', score('reteco-2a', writeFolder('2a_random', random)))
    expectBoardEqualsCli(
      board,
      '2a_ties_rank',
      score('reteco-2a', writeFolder('2a_ties_rank', ties)),
    )
    const html = (await anon.get('/boards/reteco-2a/dev')).text
    expect(html).toContain('<h2>Per domain</h2>')
    expect(html).toContain('<h2>By turn depth</h2>')
    expect(html).toContain('<th scope="col">T5+</th>')
    // The score row says how to reproduce it offline, and the run's sha256 covers every file.
    const s = await a.json<{ sha256: string; versions: { provenance: Record<string, string> }[] }>(
      `/api/v1/submissions/${up.body.id}`,
    )
    expect(s.body.versions[0]!.provenance['command']).toBe(
      'trecscore score --preset reteco-2a --data DATA --split dev --conventions plan RUN -f json',
    )
    expect(s.body.versions[0]!.provenance['runSha256']).toBe(s.body.sha256)
    expect(s.body.versions[0]!.provenance['qrelsSha256']).toMatch(/^[0-9a-f]{64}$/)
  })

  it('2c, dev: scored as `trecscore score --preset reteco-2c` (its retrieval, as 2a)', async () => {
    const run = runFolder('2a_missing_turns_unknown')
    const up = await a.uploadApiFiles('reteco-2c', 'dev', 'missing_turns', run)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    expect((await waitDone(a, up.body.id!)).state).toBe('scored')
    const board = (await anon.json<BoardJson>('/api/v1/boards/reteco-2c/dev')).body
    const rep = score('reteco-2c', writeFolder('missing_turns', run))
    expectBoardEqualsCli(board, 'missing_turns', rep)
    expect(rep.headline.value).toBeGreaterThan(0.1)
    expect(rep.headline.value).toBeLessThan(0.3)
  })

  it('an invalid per-domain run is refused with the report of `trecscore validate --preset reteco-2a`; nothing stored or charged', async () => {
    const run = runFolder('2a_random')
    const lines = run['drones.trec']!.split('\n')
    lines[4] = lines[4]!.trim().split(/\s+/).slice(0, 5).join('\t')
    const f = lines[9]!.trim().split(/\s+/)
    f[4] = 'n/a'
    lines[9] = f.join('\t')
    run['drones.trec'] = lines.join('\n')
    run['notes.txt'] = 'a stray file\n'
    const before = await submissionCount()
    const up = await a.uploadApiFiles('reteco-2a', 'dev', 'broken', run)
    expect(up.status).toBe(422)
    const dir = writeFolder('broken', run)
    const out = cli(['validate', '--preset', 'reteco-2a', '--data', DATA, dir])
    expect(out.code).toBe(2)
    expect(up.body.report).toBe(out.stdout.split(dir).join('broken'))
    expect(up.body.report).toContain('broken/drones.trec:5:')
    expect(up.body.report).toMatch(/broken: (warning|error): .*notes\.txt/)
    // The form shows the same report.
    const form = await a.uploadFormFiles('reteco-2a', 'dev', 'broken', run)
    expect(form.status).toBe(422)
    expect(form.text).toContain('broken/drones.trec:5:')
    expect(await submissionCount()).toBe(before)
  })

  it('one file for a Track 2 track: the message `trecscore validate` gives for the folder holding it', async () => {
    const one = { 'biology.trec': runFolder('2a_random')['biology.trec']! }
    const raw = await a.uploadApi('reteco-2a', 'dev', 'biology.trec', one['biology.trec'])
    expect(raw.status, JSON.stringify(raw.body)).toBe(202)
    expect((await waitDone(a, raw.body.id!)).state).toBe('scored')
    const s = await a.json<{ versions: { columns: Record<string, number> }[] }>(
      `/api/v1/submissions/${raw.body.id}`,
    )
    const rep = score('reteco-2a', writeFolder('biology.trec', one))
    expect(s.body.versions[0]!.columns['nDCG@10']).toBe(rep.headline.value)
    // Two files for one domain: refused as the CLI refuses the folder.
    const two = await a.uploadApiFiles('reteco-2a', 'dev', 'twice', {
      'biology.trec': one['biology.trec'],
      'biology.txt': one['biology.trec'],
    })
    expect(two.status).toBe(422)
    const dir = writeFolder('twice', { 'biology.trec': 'x', 'biology.txt': 'x' })
    const out = cli(['validate', '--preset', 'reteco-2a', '--data', DATA, dir])
    expect(out.code).toBe(2)
    expect(two.body.report).toBe(
      `${out.stderr
        .trim()
        .replace(/^trecscore[^:]*: /, '')
        .split(dir)
        .join('twice')}\n`,
    )
  })

  it('test (hidden): scored on the train split, invisible until release, then equal to the CLI', async () => {
    const run = Object.fromEntries(DOMAINS.map((d) => [`${d}.trec`, trainRun(d)]))
    const up = await b.uploadApiFiles('reteco-2a', 'test', 'train_run', run)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    expect((await waitDone(b, up.body.id!)).state).toBe('scored')
    const hidden = (await anon.json<BoardJson>('/api/v1/boards/reteco-2a/test')).body
    expect(hidden.released).toBe(false)
    expect(hidden.entries).toEqual([])
    expect(hidden.turnDepths).toEqual([])
    const orgPage = await org.get('/org')
    expect(orgPage.status).toBe(200)
    expect((await org.post('/org/phases/test/release')).status).toBe(303)
    const board = (await anon.json<BoardJson>('/api/v1/boards/reteco-2a/test')).body
    expect(board.released).toBe(true)
    const rep = score('reteco-2a', writeFolder('train_run', run), 'train')
    expect(rep.headline.value).toBeGreaterThan(0.5)
    expect(rep.headline.value).toBeLessThan(1)
    const e = board.entries.find((x) => x.run === 'train_run')!
    expect(e.columns['nDCG@10']).toBe(rep.headline.value)
    expect(e.columns['MRR']).toBe(rep.diagnostics['MRR'])
    const depth = rep.tables.find((t) => t.key === 'turn_depth')!
    expect(board.turnDepths).toEqual(depth.rows.map((r) => r.label))
    for (const row of depth.rows)
      expect(e.turnDepth![row.label], row.label).toBeCloseTo(row.values['nDCG@10']!, 12)
  })

  it('qrels versions: per-domain qrels files re-score every submission; the board equals the CLI on the new data; rank changes are served', async () => {
    // New biology qrels: the top 3 documents of 2a_random for each biology topic are relevant.
    const top = new Map<string, string[]>()
    for (const line of runFolder('2a_random')['biology.trec']!.split('\n')) {
      const [t, , doc] = line.trim().split(/\s+/)
      if (!t || !doc) continue
      const l = top.get(t) ?? []
      if (l.length < 3) l.push(doc)
      top.set(t, l)
    }
    const qrels = [...top].flatMap(([t, docs]) => docs.map((d) => `${t}\t0\t${d}\t1`)).join('\n')
    const add = async (
      files: Record<string, string>,
    ): Promise<{ status: number; text: string }> => {
      const fd = new FormData()
      fd.set('track', 'reteco-2a')
      fd.set('phase', 'dev')
      fd.set('note', 'assessed')
      for (const [n, c] of Object.entries(files)) fd.append('qrels', new Blob([c]), n)
      return org.request(`/org/qrels?_csrf=${encodeURIComponent(org.csrf)}`, {
        method: 'POST',
        body: fd,
      })
    }
    const misnamed = await add({ 'bio.txt': qrels })
    expect(misnamed.status).toBe(400)
    expect(misnamed.text).toContain('bio.txt: name each qrels file after its domain')
    const broken = await add({ 'drones.txt': 'not qrels at all\n' })
    expect(broken.status).toBe(400)
    expect(broken.text).toContain('not a valid qrels file')
    const before = (await anon.json<BoardJson>('/api/v1/boards/reteco-2a/dev')).body
    const ok = await add({ 'biology.txt': `${qrels}\n` })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.text).toMatch(/Qrels version 2 of reteco-2a \/ dev added; \d+ submission\(s\) queued/)
    for (let i = 0; ; i++) {
      const b = await org.json<{ rescoring: number }>('/api/v1/boards/reteco-2a/dev')
      if (b.body.rescoring === 0) break
      if (i > 600) throw new Error('re-scoring did not finish')
      await new Promise((r) => setTimeout(r, 50))
    }
    const data = join(comp.dir, 'data-v2')
    rmSync(data, { recursive: true, force: true })
    cpSync(DATA, data, { recursive: true })
    writeFileSync(join(data, 'track2_recor', 'biology', 'qrels_dev.txt'), `${qrels}\n`)
    const after = (
      await anon.json<BoardJson & { qrelsVersion: number }>('/api/v1/boards/reteco-2a/dev')
    ).body
    expect(after.qrelsVersion).toBe(2)
    expect(after.entries.length).toBe(before.entries.length)
    for (const e of after.entries) {
      const rep = score('reteco-2a', join(comp.dir, 'cli-runs', e.run!), 'dev', data)
      expectBoardEqualsCli(after, e.run!, rep)
    }
    const a2 = after.entries.find((e) => e.run === '2a_random')!
    const a1 = before.entries.find((e) => e.run === '2a_random')!
    expect(a2.domains!['biology']).toBe(1)
    expect(a1.domains!['biology']).toBeLessThan(0.2)
    // The rank diff between the two versions (page and API).
    const diff = await anon.json<{
      from: number
      to: number
      rows: { team: string; from: { primary: number } | null; to: { primary: number } | null }[]
    }>('/api/v1/boards/reteco-2a/dev/diff')
    expect(diff.status).toBe(200)
    expect([diff.body.from, diff.body.to]).toEqual([1, 2])
    const teamA = diff.body.rows.find((r) => r.team === 'Team A')!
    expect(teamA.to!.primary).toBe(
      after.entries.find((e) => e.team === 'Team A')!.columns['nDCG@10'],
    )
    expect(teamA.from!.primary).toBe(
      before.entries.find((e) => e.team === 'Team A')!.columns['nDCG@10'],
    )
    expect((await anon.get('/boards/reteco-2a/dev/diff')).status).toBe(200)
    // The old score version is kept beside the new one.
    const s = await a.json<{ versions: { qrelsVersion: number }[] }>(
      `/api/v1/submissions/${after.entries.find((e) => e.team === 'Team A')!.submissionId}`,
    )
    expect(s.body.versions.map((v) => v.qrelsVersion)).toEqual([2, 1])
    // New uploads are checked and scored against version 2 as well.
    const up = await b.uploadApiFiles('reteco-2a', 'dev', '2a_perfect', runFolder('2a_perfect'))
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    expect((await waitDone(b, up.body.id!)).state).toBe('scored')
    const rep = score('reteco-2a', writeFolder('2a_perfect', runFolder('2a_perfect')), 'dev', data)
    const s2 = await b.json<{
      versions: { qrelsVersion: number; columns: Record<string, number> }[]
    }>(`/api/v1/submissions/${up.body.id}`)
    expect(s2.body.versions[0]!.qrelsVersion).toBe(2)
    expect(s2.body.versions[0]!.columns['nDCG@10']).toBe(rep.headline.value)
    expect(rep.headline.value).toBeLessThan(1)
  })
})
