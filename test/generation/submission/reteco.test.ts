/**
 * RETECO 2b/2c answer validation on the RETECO conformance fixture data (test/fixtures/reteco/data:
 * release layout, 3 RECOR domains, dev split): target turns from the qrels (as --preset reteco-2a),
 * per-domain directories, hints for turns of other domains, splits and turns without gold passages,
 * the 2c retrieval run, and the CLI (in process).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { validateRetecoAnswers } from '../../../src/presets/reteco/validate-answers.js'
import { runCli } from '../../stats/agreement/helpers.js'

const FIX = join(import.meta.dirname, '..', '..', 'fixtures', 'reteco')
const DATA = join(FIX, 'data')
const RETRIEVAL = join(FIX, 'runs', '2a_perfect')
const DOMAINS = ['biology', 'drones', 'earth_science']

/** Turn ids of a domain's dev qrels, in first-appearance order (read here, not through the loader). */
function devTurns(domain: string): string[] {
  const ids = readFileSync(join(DATA, 'track2_recor', domain, 'qrels_dev.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split(/\s+/)[0]!)
  return [...new Set(ids)]
}

const root = mkdtempSync(join(tmpdir(), 'trecscore-answers-'))
function answersDir(name: string, files: Record<string, string>): string {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text)
  return dir
}
const jsonl = (turns: readonly string[], answer = (t: string) => `An answer for ${t}.`): string =>
  turns.map((t) => JSON.stringify({ turn_id: t, answer: answer(t) })).join('\n') + '\n'
const complete = (): Record<string, string> =>
  Object.fromEntries(DOMAINS.map((d) => [`${d}.jsonl`, jsonl(devTurns(d))]))

describe('validateRetecoAnswers on the fixture data', () => {
  it('the fixture has the expected target turns (qrels topics; biology 11_turn_2 has no gold passages)', () => {
    expect(devTurns('biology')).toHaveLength(19) // 20 turns in 5 conversations, one without gold passages
    expect(devTurns('biology')).not.toContain('11_turn_2')
    expect(devTurns('drones')).toHaveLength(18)
  })

  it('a complete 2b submission is ok', async () => {
    const v = await validateRetecoAnswers(answersDir('complete', complete()), {
      subtrack: '2b',
      data: DATA,
    })
    expect([v.ok, v.errors, v.warnings, v.layout, v.split]).toEqual([
      true,
      0,
      0,
      'per-domain',
      'dev',
    ])
    expect(v.domains.map((d) => [d.domain, d.targetTurns, d.report!.answeredTurns])).toEqual(
      DOMAINS.map((d) => [d, devTurns(d).length, devTurns(d).length]),
    )
  })

  it('problems with hints; a domain without a file: every turn missing; stray files', async () => {
    const bio = devTurns('biology')
    const files = {
      'biology.jsonl': jsonl([...bio.slice(1), '11_turn_2', '14_turn_5', '21_turn_1', bio[2]!]),
      'drones.jsonl': jsonl(devTurns('drones')),
      'notes.txt': 'hello',
    }
    const v = await validateRetecoAnswers(answersDir('problems', files), {
      subtrack: '2b',
      data: DATA,
    })
    const b = v.domains.find((d) => d.domain === 'biology')!.report!
    const byLine = (n: number) => b.problems.find((p) => p.line === n)!
    const n = bio.length - 1
    expect(byLine(n + 1).message).toContain('no gold passages in the qrels')
    expect(byLine(n + 2).message).toContain('a turn of domain earth_science')
    expect(byLine(n + 3).message).toContain('a turn of the train split')
    expect(byLine(n + 4).code).toBe('duplicate_turn')
    expect(b.problems.filter((p) => p.code === 'missing_turn').map((p) => p.turnId)).toEqual([
      bio[0],
    ])
    const es = v.domains.find((d) => d.domain === 'earth_science')!
    expect(es.report).toBeNull()
    expect(es.targetTurns).toBe(devTurns('earth_science').length)
    expect(v.strayFiles).toEqual([join(root, 'problems', 'notes.txt')])
    expect(v.errors).toBe(4)
    expect(v.warnings).toBe(1 + devTurns('earth_science').length + 1)
    expect(v.ok).toBe(false)
  })

  it('a single file is refused when the data has several domains (turn ids repeat across domains)', async () => {
    const f = join(answersDir('single', { 'all.jsonl': jsonl(devTurns('biology')) }), 'all.jsonl')
    await expect(validateRetecoAnswers(f, { subtrack: '2b', data: DATA })).rejects.toThrow(
      /must be a directory with one file per domain/,
    )
  })

  it('2c needs the retrieval run, and validates it', async () => {
    const dir = answersDir('c', complete())
    await expect(validateRetecoAnswers(dir, { subtrack: '2c', data: DATA })).rejects.toThrow(
      /--retrieval RUN/,
    )
    await expect(
      validateRetecoAnswers(dir, { subtrack: '2b', data: DATA, retrieval: RETRIEVAL }),
    ).rejects.toThrow(/--retrieval is for reteco-2c/)
    const v = await validateRetecoAnswers(dir, { subtrack: '2c', data: DATA, retrieval: RETRIEVAL })
    expect(v.retrieval).not.toBeNull()
    expect(v.retrieval!.subtrack).toBe('2c')
    expect(v.retrieval!.files).toHaveLength(3)
    expect(v.errors).toBe(v.retrieval!.errors)
  })
})

describe('trecscore validate --preset reteco-2b|reteco-2c (CLI)', () => {
  it('exit 0 for a complete submission; 1 with --strict and warnings; 2 with errors', async () => {
    const ok = await runCli([
      'validate',
      '--preset',
      'reteco-2b',
      answersDir('cli-ok', complete()),
      '--data',
      DATA,
    ])
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/ok: 0 error\(s\), 0 warning\(s\)\n$/)
    const files = complete()
    files['drones.jsonl'] = jsonl(devTurns('drones').slice(1))
    const warn = answersDir('cli-warn', files)
    expect((await runCli(['validate', '--preset', 'reteco-2b', warn, '--data', DATA])).code).toBe(0)
    const strict = await runCli([
      'validate',
      '--preset',
      'reteco-2b',
      warn,
      '--data',
      DATA,
      '--strict',
    ])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain(
      'warning missing_turn: no answer for target turn "ex_4102_turn_1": it scores zero',
    )
    files['biology.jsonl'] =
      `${jsonl(devTurns('biology'), (t) => (t.endsWith('_1') ? 'x'.repeat(30) : 'short'))}{bad\n`
    const bad = answersDir('cli-bad', files)
    const r = await runCli([
      'validate',
      '--preset',
      'reteco-2b',
      bad,
      '--data',
      DATA,
      '--max-answer-chars',
      '20',
      '--format',
      'json',
    ])
    expect(r.code).toBe(2)
    const j = JSON.parse(r.stdout) as {
      schema: string
      errors: number
      domains: { domain: string; report: { counts: Record<string, number> } | null }[]
    }
    expect(j.schema).toBe('trecscore.reteco-answers-validate/1')
    const counts = j.domains.find((d) => d.domain === 'biology')!.report!.counts
    expect(counts['answer_too_long']).toBe(
      devTurns('biology').filter((t) => t.endsWith('_1')).length,
    )
    expect(counts['invalid_json']).toBe(1)
  })

  it('reteco-2c: answers need --retrieval; a retrieval run alone is still validated as before', async () => {
    const dir = answersDir('cli-2c', complete())
    const needs = await runCli([
      'validate',
      '--preset',
      'reteco-2c',
      join(dir, 'biology.jsonl'),
      '--data',
      DATA,
    ])
    expect(needs.code).toBe(2)
    expect(needs.stderr).toContain('needs --retrieval RUN')
    const both = await runCli([
      'validate',
      '--preset',
      'reteco-2c',
      dir,
      '--retrieval',
      RETRIEVAL,
      '--data',
      DATA,
    ])
    expect(both.stdout).toContain('retrieval run for 2c')
    expect(both.code).toBe(0)
    const runOnly = await runCli(['validate', '--preset', 'reteco-2c', RETRIEVAL, '--data', DATA])
    expect(runOnly.stdout).not.toContain('answers')
    expect(runOnly.code).toBe(0)
    const no2b = await runCli([
      'validate',
      '--preset',
      'reteco-2b',
      dir,
      '--data',
      DATA,
      '--retrieval',
      RETRIEVAL,
    ])
    expect(no2b.code).toBe(2)
  })
})
