/**
 * Judged tracks (RETECO 2b and 2c) on the server, end to end on the synthetic judge example data
 * (examples/judge) against the scripted OpenAI-compatible mock server: uploads validated as
 * `trecscore validate --preset reteco-2b|reteco-2c`, judged by the real worker, and every board
 * number (the five dimensions, overall, ROUGE-L, METEOR, tokens, cost, requests, cache hits,
 * invalid and missing per dimension; for 2c the retrieval scores) equal to `trecscore judge run`
 * (and `trecscore score --preset reteco-2c`) on the same files. An over-budget submission is
 * refused before any request; two workers judging the same submission at once ask each request
 * once (on Postgres through the database's judgment cache, with no cache file in the data
 * folder); the API key is never shown. The runs are in the directory store on SQLite and in
 * the database store on Postgres (`--runs database`: the judge's outputs are kept there too).
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { findPhase, findTrack, loadCompetition } from '../../src/server/config/load.js'
import { type Db, openDatabase, parseDbLocation } from '../../src/server/db/database.js'
import { estimateJudgeCost } from '../../src/server/judging/budget.js'
import type { JudgeCacheHome } from '../../src/server/judging/cache-home.js'
import { judgeSubmission } from '../../src/server/judging/judge.js'
import { cli } from '../cli/helpers.js'
import { type ScriptedServer, startServer as startMock } from '../generation/judge/server.js'
import { BACKEND, createTestDatabase, dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, ROOT, type TestCompetition } from './helpers.js'
import {
  EXAMPLE_ANSWERS,
  EXAMPLE_RUN,
  JUDGE_EXAMPLES,
  JUDGE_KEY_ENV,
  judgedTrack,
  scriptedJudge,
} from './judge-helpers.js'

const EX = JUDGE_EXAMPLES
const RUNS = BACKEND === 'postgres' ? 'database' : 'directory'
const RECOR = join(EX, 'recor')
const SECRET = 'sk-test-secret-never-shown-7f3a'
const DIMS = ['correctness', 'completeness', 'relevance', 'coherence', 'faithfulness']

let mock: ScriptedServer
let comp: TestCompetition
let server: RunningServer
let org: Client
let a: Client
let anon: Client

const ANSWERS = EXAMPLE_ANSWERS
const RUN = EXAMPLE_RUN

function judgeTrack(
  id: string,
  preset: 'reteco-2b' | 'reteco-2c',
  extra: Record<string, unknown> = {},
) {
  return judgedTrack(id, preset, mock.url, extra)
}

beforeAll(async () => {
  process.env[JUDGE_KEY_ENV] = SECRET
  mock = await startMock(scriptedJudge)
  comp = makeCompetition({
    config: {
      limits: { perDay: 50 },
      upload: { maxLineBytes: 65536 },
      tracks: [
        judgeTrack('gen-2b', 'reteco-2b'),
        judgeTrack('gen-2c', 'reteco-2c'),
        judgeTrack('gen-budget', 'reteco-2b', { budget: { perTeam: 0.001 } }),
      ],
    },
  })
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
    // Both run stores judged (storage/run-store.ts): the folder on SQLite, the database on
    // Postgres (where the job's judge-…/ outputs must come back from its copy of the run).
    runs: RUNS,
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  a = await joinTeam(server.app, org, 'Team A', 'ann')
  anon = new Client(server.app, 'anonymous')
  await anon.get('/')
}, 60_000)

afterAll(async () => {
  await server?.close()
  await mock?.close()
  comp?.cleanup()
  delete process.env[JUDGE_KEY_ENV]
})

interface JudgeReport {
  judge_config_id: string
  overall: number
  dimensions: { dimension: string; mean: number | null; invalid: number; missing: number }[]
  run: {
    dimensions: { calls: number; cacheHits: number }[]
    tokens: { promptTokens: number; completionTokens: number }
    cost: number
  }
  lexical: { all: { rougeL: number; meteor: number } }
}

/** The built CLI, without blocking this process (the mock server answers from it). */
function cliAsync(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'trecscore.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: '', TRECSCORE_JUDGE_API_KEY: '' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** `trecscore judge run` on the same files with a fresh cache; its JSON report. */
async function judgeRun(preset: string, answers: string, retrieval?: string): Promise<JudgeReport> {
  const dir = join(comp.dir, 'cli', `${preset}-${Math.random().toString(36).slice(2)}`)
  mkdirSync(dir, { recursive: true })
  const out = await cliAsync([
    'judge',
    'run',
    '--preset',
    preset,
    '--data',
    RECOR,
    '--split',
    'pilot',
    ...(retrieval ? ['--retrieval', retrieval] : []),
    answers,
    '--base-url',
    mock.url,
    '--rpm',
    '0',
    '--cache',
    join(dir, 'cache.sqlite'),
    '-o',
    join(dir, 'judgments.jsonl'),
    '--report-json',
    join(dir, 'report.json'),
    '--quiet',
  ])
  expect(out.code, out.stderr).toBe(0)
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JudgeReport
}

interface BoardJson {
  columns: string[]
  judge: { model: string; configHash: string; invalidPolicy: string; columns: string[] } | null
  entries: { run: string | null; primary: number; columns: Record<string, number | null> }[]
}

function expectEqualsCli(cols: Record<string, number | null>, rep: JudgeReport): void {
  expect(cols['overall']).toBe(rep.overall)
  for (const d of rep.dimensions) {
    expect(cols[d.dimension], d.dimension).toBe(d.mean)
    expect(cols[`invalid ${d.dimension}`], d.dimension).toBe(d.invalid)
    expect(cols[`missing ${d.dimension}`], d.dimension).toBe(d.missing)
  }
  expect(cols['ROUGE-L']).toBe(rep.lexical.all.rougeL)
  expect(cols['METEOR']).toBe(rep.lexical.all.meteor)
  expect(cols['judge tokens in']).toBe(rep.run.tokens.promptTokens)
  expect(cols['judge tokens out']).toBe(rep.run.tokens.completionTokens)
  expect(cols['judge cost']).toBe(rep.run.cost)
  expect(cols['judge requests']).toBe(rep.run.dimensions.reduce((n, d) => n + d.calls, 0))
  expect(cols['judge cache hits']).toBe(rep.run.dimensions.reduce((n, d) => n + d.cacheHits, 0))
}

describe('judged tracks (RETECO 2b, 2c) on the server', () => {
  it('2b: judged by the worker; the board equals `trecscore judge run`; a resubmission is all cache hits', async () => {
    const before = mock.total()
    const up = await a.uploadApiFiles('gen-2b', 'dev', 'answers-v1', ANSWERS)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    const done = await waitDone(a, up.body.id!, 60_000)
    expect(done.state, done.reason ?? '').toBe('scored')
    const asked = mock.total() - before
    const board = (await anon.json<BoardJson>('/api/v1/boards/gen-2b/dev')).body
    expect(board.columns).toEqual(['overall', ...DIMS, 'ROUGE-L', 'METEOR'])
    expect(board.judge).toMatchObject({ invalidPolicy: 'exclude' })
    expect(board.judge!.configHash).toMatch(/^[0-9a-f]{64}$/)
    const e = board.entries.find((x) => x.run === 'answers-v1')!
    // 4 answered turns x 5 dimensions; the eggshell answer's coherence is invalid (asked again once per retry).
    expect(e.columns['judge requests']).toBe(asked)
    expect(e.columns['judge cache hits']).toBe(0)
    expect(e.columns['invalid coherence']).toBe(1)
    expect(e.columns['judge invalid']).toBe(1)
    expect(e.columns['judge tokens in']).toBe(100 * asked)
    expect(e.columns['judge tokens out']).toBe(10 * asked)
    const rep = await judgeRun('reteco-2b', join(EX, 'answers'))
    expect(rep.judge_config_id).toBe(board.judge!.configHash)
    expectEqualsCli(e.columns, rep)
    expect(e.primary).toBe(rep.overall)
    // The board page shows the judge, its accounting and the invalid count, escaped.
    const html = (await anon.get('/boards/gen-2b/dev')).text
    expect(html).toContain('<h2>Judge</h2>')
    expect(html).toContain(board.judge!.configHash)
    expect(html).toContain('<th scope="col">invalid coherence</th>')
    // Same answers again: nothing asked, every judgment from the cache, the same scores.
    const again = mock.total()
    const up2 = await a.uploadApiFiles('gen-2b', 'dev', 'answers-v2', ANSWERS)
    expect(up2.status).toBe(202)
    expect((await waitDone(a, up2.body.id!, 60_000)).state).toBe('scored')
    expect(mock.total()).toBe(again)
    const b2 = (await anon.json<BoardJson>('/api/v1/boards/gen-2b/dev')).body
    // One entry per team (its best): both submissions have equal scores; check the submission itself.
    const s2 = await a.json<{ versions: { columns: Record<string, number | null> }[] }>(
      `/api/v1/submissions/${up2.body.id}`,
    )
    const c2 = s2.body.versions[0]!.columns
    expect(c2['overall']).toBe(rep.overall)
    expect(c2['judge requests']).toBe(0)
    expect(c2['judge cost']).toBe(0)
    expect(c2['judge cache hits']).toBe(20)
    expect(b2.entries.length).toBe(1)
    // The judgment cache is where the backend keeps it: a file per config on SQLite; on
    // Postgres the database's tables, and no cache file under the data folder.
    const cacheDir = join(comp.data, 'judge')
    if (BACKEND === 'postgres') {
      expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([])
      const n = await server.ctx.db
        .selectFrom('judge_judgments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('config_hash', '=', board.judge!.configHash)
        .executeTakeFirstOrThrow()
      expect(Number(n.n)).toBe(20)
    } else
      expect(readdirSync(cacheDir).filter((f) => f.endsWith('.sqlite'))).toEqual([
        `cache-${board.judge!.configHash.slice(0, 12)}.sqlite`,
      ])
    // The key is never shown: not on the pages, the board or the submission.
    const page = (await a.get(`/team/submissions/${up.body.id}`)).text
    for (const t of [html, page, JSON.stringify(b2), JSON.stringify(s2.body)]) {
      expect(t).not.toContain(SECRET)
      expect(t).not.toContain(mock.url)
    }
  }, 120_000)

  it('2c: answers and their retrieval run; the board equals `judge run --retrieval` and `score --preset reteco-2c`', async () => {
    const up = await a.uploadApiFiles('gen-2c', 'dev', 'rag-1', { ...ANSWERS, ...RUN })
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    const done = await waitDone(a, up.body.id!, 60_000)
    expect(done.state, done.reason ?? '').toBe('scored')
    const board = (await anon.json<BoardJson>('/api/v1/boards/gen-2c/dev')).body
    expect(board.columns).toEqual([
      'overall',
      ...DIMS,
      'retrieval nDCG@10',
      'retrieval MAP@10',
      'retrieval Recall@10',
      'retrieval MRR',
      'ROUGE-L',
      'METEOR',
    ])
    const e = board.entries.find((x) => x.run === 'rag-1')!
    // The fresh CLI cache asks everything; the server's shared cache had the 2b requests of
    // the turns whose top-5 equals the gold passages, so only the judge scores are compared.
    const rep = await judgeRun('reteco-2c', join(EX, 'answers'), join(EX, 'run'))
    expect(e.columns['overall']).toBe(rep.overall)
    for (const d of rep.dimensions) expect(e.columns[d.dimension], d.dimension).toBe(d.mean)
    expect(e.columns['ROUGE-L']).toBe(rep.lexical.all.rougeL)
    const sc = cli([
      'score',
      '--preset',
      'reteco-2c',
      '--data',
      RECOR,
      join(EX, 'run'),
      '-f',
      'json',
    ])
    expect(sc.code, sc.stderr).toBe(0)
    const r = (
      JSON.parse(sc.stdout) as {
        reports: { headline: { value: number }; diagnostics: Record<string, number> }[]
      }
    ).reports[0]!
    expect(e.columns['retrieval nDCG@10']).toBe(r.headline.value)
    expect(e.columns['retrieval MAP@10']).toBe(r.diagnostics['MAP@10'])
    expect(e.columns['retrieval MRR']).toBe(r.diagnostics['MRR'])
  }, 120_000)

  it('uploads are checked as `trecscore validate --preset reteco-2b|2c`: a 2c upload without its run, a bad answers line', async () => {
    const noRun = await a.uploadApiFiles('gen-2c', 'dev', 'x', ANSWERS)
    expect(noRun.status).toBe(422)
    expect(noRun.body.report).toContain('no retrieval file was sent')
    const bad = {
      ...ANSWERS,
      'gardening.jsonl': `${ANSWERS['gardening.jsonl']!}{"turn_id": "c1_turn_1"}\n`,
    }
    const up = await a.uploadApiFiles('gen-2b', 'dev', 'bad', bad)
    expect(up.status).toBe(422)
    const dir = join(comp.dir, 'cli', 'bad-answers')
    mkdirSync(dir, { recursive: true })
    for (const [f, t] of Object.entries(bad)) writeFileSync(join(dir, f), t)
    const v = cli(['validate', '--preset', 'reteco-2b', '--data', RECOR, '--split', 'pilot', dir])
    expect(v.code).toBe(2)
    // The same report, with the run's name for the folder.
    expect(up.body.report).toBe(v.stdout.split(dir).join('bad/answers'))
  })

  it('an over-budget submission is refused before any request, with the estimate shown', async () => {
    const before = mock.total()
    const up = await a.uploadApiFiles('gen-budget', 'dev', 'costly', {
      ...ANSWERS,
      'gardening.jsonl': ANSWERS['gardening.jsonl']!.replace('tomato', 'tomato plant'),
    })
    expect(up.status).toBe(403)
    expect(up.body.error).toMatch(
      /^judging this submission would cost an estimated [0-9.]+ USD; with 0\.0000 USD spent it would exceed your team's judge budget for track gen-budget in phase dev \(0\.0010 USD\); nothing was stored, charged or sent to the judge$/,
    )
    expect(up.body.report).toMatch(
      /^judge cost estimate: [0-9.]+ USD for [0-9]+ request\(s\) not in the judgment cache/,
    )
    expect(mock.total()).toBe(before)
    const n = await server.ctx.db
      .selectFrom('submissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('track', '=', 'gen-budget')
      .executeTakeFirstOrThrow()
    expect(Number(n.n)).toBe(0)
  })

  it('two workers judging the same submission at once ask each request once', async () => {
    const quiet = await startMock((r) => ({
      kind: 'delay',
      ms: 20,
      then: { kind: 'score', score: (Number.parseInt(r.hash.slice(0, 2), 16) % 5) + 1 },
    }))
    try {
      const competition = loadCompetition(comp.config)
      const base = findTrack(competition, 'gen-2b')!
      const track = {
        ...base,
        judging: { ...base.judging!, settings: { ...base.judging!.settings, baseUrl: quiet.url } },
      }
      const phase = findPhase(competition, 'dev')!
      const dataDir = join(comp.dir, 'workers')
      const run = join(dataDir, 'runs', 's1', 'answers-run')
      mkdirSync(join(run, 'answers'), { recursive: true })
      cpSync(join(EX, 'answers'), join(run, 'answers'), { recursive: true })
      // A fresh cache: on Postgres a fresh database, each worker with its own connection pool
      // (as two worker processes have).
      const dbs: Db[] = []
      const home = async (): Promise<JudgeCacheHome | string> => {
        if (BACKEND !== 'postgres') return dataDir
        const url = (pgUrl ??= await createTestDatabase())
        const db = await openDatabase(parseDbLocation(url, dataDir))
        dbs.push(db)
        return { kind: 'postgres', db }
      }
      let pgUrl: string | undefined
      const [hx, hy] = [await home(), await home()]
      let x: Awaited<ReturnType<typeof judgeSubmission>>
      let y: typeof x
      try {
        // The budget estimate reads the same cache as the run: all uncached first, all cached after.
        expect(await estimateJudgeCost(track, phase, run, hx)).toMatchObject({
          requests: 20,
          cached: 0,
        })
        ;[x, y] = await Promise.all([
          judgeSubmission(track, phase, run, hx),
          judgeSubmission(track, phase, run, hy),
        ])
        expect(await estimateJudgeCost(track, phase, run, hy)).toMatchObject({
          requests: 0,
          cached: 20,
          cost: 0,
        })
        // Each worker wrote its files under its own name and renamed them into place.
        const kept = join(dataDir, 'runs', 's1', `judge-${track.judging.configHash.slice(0, 12)}`)
        expect(readdirSync(kept).sort()).toEqual(['judgments.jsonl', 'report.json'])
        const notes = (
          JSON.parse(readFileSync(join(kept, 'report.json'), 'utf8')) as { notes: string[] }
        ).notes
        expect(notes).toContain(`judgments written to ${join(kept, 'judgments.jsonl')}`)
        if (BACKEND === 'postgres') {
          expect(existsSync(join(dataDir, 'judge'))).toBe(false)
          const rows = await dbs[0]!.selectFrom('judge_judgments').select('key').execute()
          expect(rows).toHaveLength(20)
          // Every claim ended with its judgment.
          expect(await dbs[0]!.selectFrom('judge_claims').selectAll().execute()).toEqual([])
        }
      } finally {
        for (const d of dbs) await d.destroy()
      }
      expect(quiet.total()).toBe(20)
      expect(quiet.counts.size).toBe(20)
      expect(x!.columns).toEqual({
        ...y!.columns,
        'judge requests': x!.columns['judge requests'],
        'judge cache hits': x!.columns['judge cache hits'],
        'judge tokens in': x!.columns['judge tokens in'],
        'judge tokens out': x!.columns['judge tokens out'],
        'judge cost': x!.columns['judge cost'],
      })
      expect(
        (x!.columns['judge requests'] as number) + (y!.columns['judge requests'] as number),
      ).toBe(20)
    } finally {
      await quiet.close()
    }
  }, 60_000)

  it('judged submissions fill the spot-validation pool with the items and judgments of `judge run`', async () => {
    expect((await org.get('/org/validation')).status).toBe(200)
    const db = server.ctx.db
    const rows = await db
      .selectFrom('judged_items')
      .selectAll()
      .where('track', '=', 'gen-2b')
      .orderBy('created_at')
      .orderBy('submission_id')
      .execute()
    const subs = [...new Set(rows.map((r) => r.submission_id))]
    expect(subs).toHaveLength(2) // answers-v1 and answers-v2
    // The judgments the pool was built from are kept in the run's store, beside the run.
    const hash = (await anon.json<BoardJson>('/api/v1/boards/gen-2b/dev')).body.judge!.configHash
    for (const s of subs) {
      const kept = `judge-${hash.slice(0, 12)}/judgments.jsonl`
      expect((await server.ctx.runs.of(RUNS).files(s)).map((f) => f.path)).toContain(kept)
      expect(existsSync(join(comp.data, 'runs', s, kept))).toBe(RUNS === 'directory')
    }
    const dir = join(comp.dir, 'cli', 'pool')
    mkdirSync(dir, { recursive: true })
    const out = await cliAsync([
      'judge',
      'run',
      '--preset',
      'reteco-2b',
      '--data',
      RECOR,
      '--split',
      'pilot',
      join(EX, 'answers'),
      '--base-url',
      mock.url,
      '--rpm',
      '0',
      '--cache',
      join(dir, 'cache.sqlite'),
      '-o',
      join(dir, 'judgments.jsonl'),
      '--quiet',
    ])
    expect(out.code, out.stderr).toBe(0)
    const key = (j: Record<string, unknown>) => `${j['domain']} ${j['turn_id']} ${j['dimension']}`
    const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0
    const cliJudgments = readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((j) => j['unanswered'] !== true)
      .sort(byKey)
    for (const s of subs) {
      const mine = rows.filter((r) => r.submission_id === s)
      expect(mine).toHaveLength(4) // the 4 answered turns
      const pooled = mine
        .flatMap((r) => JSON.parse(r.judgments) as Record<string, unknown>[])
        .sort(byKey)
      expect(pooled.map(({ attempts: _, ...j }) => j)).toEqual(
        cliJudgments.map(({ attempts: _, ...j }) => j),
      )
      for (const r of mine) {
        const item = JSON.parse(r.item) as { turn_id: string; answer: string }
        expect(item.turn_id).toBe(r.turn_id)
        expect(typeof item.answer).toBe('string')
      }
    }
    // Opening the page again adds nothing.
    await org.get('/org/validation')
    const again = await db
      .selectFrom('judged_items')
      .select('id')
      .where('track', '=', 'gen-2b')
      .execute()
    expect(again).toHaveLength(rows.length)
  }, 60_000)
})
