/**
 * BERTScore as a diagnostic column of a judged track (`judge.bertscore` in the config): the
 * worker computes it with the track's local ONNX model (a tiny random BERT written at test time,
 * test/generation/bertscore/tiny-bert.ts), the board shows it beside ROUGE-L and METEOR, and the
 * number equals `trecscore judge run --bertscore-model` on the same files. Its model is part of
 * the scorer version.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/server/app.js'
import { createOrganizer } from '../../src/server/auth/accounts.js'
import { loadCompetition } from '../../src/server/config/load.js'
import { TRECSCORE_VERSION } from '../../src/server/scoring.js'
import { writeTinyBert } from '../generation/bertscore/tiny-bert.js'
import { type ScriptedServer, startServer as startMock } from '../generation/judge/server.js'
import { dbOptions } from './backend.js'
import { Client, joinTeam, waitDone } from './client.js'
import { makeCompetition, ROOT, type TestCompetition } from './helpers.js'
import { EXAMPLE_ANSWERS, JUDGE_EXAMPLES, JUDGE_KEY_ENV, judgedTrack } from './judge-helpers.js'

const EX = JUDGE_EXAMPLES
const ANSWERS = EXAMPLE_ANSWERS

let mock: ScriptedServer
let comp: TestCompetition
let server: RunningServer
let team: Client
let anon: Client
let model = ''

beforeAll(async () => {
  process.env[JUDGE_KEY_ENV] = 'sk-test'
  mock = await startMock((r) => ({
    kind: 'score' as const,
    score: (Number.parseInt(r.hash.slice(0, 2), 16) % 5) + 1,
  }))
  comp = makeCompetition({ config: {} })
  model = join(comp.dir, 'tiny-bert')
  mkdirSync(model)
  writeTinyBert(model)
  const c = JSON.parse(readFileSync(comp.config, 'utf8'))
  writeFileSync(
    comp.config,
    JSON.stringify({
      ...c,
      limits: { perDay: 50 },
      upload: { maxLineBytes: 65536 },
      tracks: [
        judgedTrack(
          'gen',
          'reteco-2b',
          mock.url,
          { bertscore: { model: 'tiny-bert', layer: 2 } },
          'Generation',
        ),
      ],
    }),
  )
  server = await startServer({
    competition: loadCompetition(comp.config),
    dataDir: comp.data,
    ...(await dbOptions(comp.data)),
  })
  await createOrganizer(server.ctx.db, 'org', 'organizer-secret-1', new Date())
  const org = new Client(server.app, 'org')
  expect((await org.login('org', 'organizer-secret-1')).status).toBe(303)
  team = await joinTeam(server.app, org, 'Team A', 'ann')
  anon = new Client(server.app, 'anonymous')
  await anon.get('/')
}, 60_000)

afterAll(async () => {
  await server?.close()
  await mock?.close()
  comp?.cleanup()
  delete process.env[JUDGE_KEY_ENV]
})

/** The built CLI, without blocking this process (the mock server answers from it). */
function cliAsync(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'trecscore.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_API_KEY: '', TRECSCORE_JUDGE_API_KEY: '' },
    })
    let stderr = ''
    child.stdout.resume()
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

describe('BERTScore on a judged track', () => {
  it('the board shows BERTScore, equal to `judge run --bertscore-model` on the same files', async () => {
    const up = await team.uploadApiFiles('gen', 'dev', 'answers', ANSWERS)
    expect(up.status, JSON.stringify(up.body)).toBe(202)
    const done = await waitDone(team, up.body.id!, 90_000)
    expect(done.state, done.reason ?? '').toBe('scored')
    const board = (
      await anon.json<{
        columns: string[]
        entries: { columns: Record<string, number | null> }[]
      }>('/api/v1/boards/gen/dev')
    ).body
    expect(board.columns).toEqual([
      'overall',
      'correctness',
      'completeness',
      'relevance',
      'coherence',
      'faithfulness',
      'ROUGE-L',
      'METEOR',
      'BERTScore',
    ])
    const shown = board.entries[0]!.columns['BERTScore']
    expect(typeof shown).toBe('number')
    const dir = join(comp.dir, 'cli')
    mkdirSync(dir, { recursive: true })
    const out = await cliAsync([
      'judge',
      'run',
      '--preset',
      'reteco-2b',
      '--data',
      join(EX, 'recor'),
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
      '--report-json',
      join(dir, 'report.json'),
      '--bertscore-model',
      model,
      '--bertscore-layer',
      '2',
      '--quiet',
    ])
    expect(out.code, out.stderr).toBe(0)
    const rep = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      bertscore: { f1: number; turns: number; unanswered: number }
    }
    expect(shown).toBe(rep.bertscore.f1)
    expect(rep.bertscore.turns).toBeGreaterThan(0)
    const score = await server.ctx.db
      .selectFrom('scores')
      .select('scorer_version')
      .executeTakeFirstOrThrow()
    expect(score.scorer_version).toMatch(
      new RegExp(
        `^${TRECSCORE_VERSION.replaceAll('.', '\\.')}\\+judge\\.[0-9a-f]{12}\\+bertscore\\.[0-9a-f]{8}$`,
      ),
    )
  }, 180_000)
})
