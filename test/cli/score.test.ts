import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const F = 'test/fixtures/reteco'
const DATA = `${F}/data`
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-score-'))

describe('trecscore score --preset reteco-*', () => {
  it('1a, per-domain directory: headline, diagnostics, aggregations, counts, conventions (table)', () => {
    const r = cli(['score', '--preset', 'reteco-1a', '--data', DATA, `${F}/runs/1a_dups_unknown`])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/headline nDCG@10 = 0\.3783 \(query macro\)/)
    expect(r.stdout).toMatch(
      /TC@10 0\.6010 \(32 queries with periods\)\s+nDCG\|FC@10 0\.5812 \(16 with full coverage\)/,
    )
    expect(r.stdout).toMatch(/^domain macro\s+0\.3791/m)
    expect(r.stdout).toMatch(/^bitcoin\s+12\s+584\s+0\s+1\s+5\s+17\s+2 \(10 lines\)/m)
    expect(r.stdout).toMatch(/ordering: score descending after rounding to float32/)
  })
  it('JSON: the full report, per topic with -q, null for an undefined nDCG|FC', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      DATA,
      `${F}/runs/1a_weak`,
      '-q',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schema).toBe('trecscore.reteco-score/1')
    const rep = j.reports[0]
    expect(rep).toMatchObject({
      conventionSet: 'plan',
      subtrack: '1a',
      runLayout: 'per-domain',
      headline: { measure: 'nDCG@10', value: 0 },
    })
    expect(rep.diagnostics['nDCG|FC@10']).toBeNull()
    expect(rep.perTopic).toHaveLength(35)
  })
  it('one file for all Track 1 domains is routed by topic', () => {
    const all = ['bitcoin', 'history', 'law']
      .map((d) => readFileSync(`${F}/runs/1a_random/${d}.trec`, 'utf8'))
      .join('')
    writeFileSync(join(tmp, 'all.trec'), all)
    const whole = JSON.parse(
      cli(['score', '--preset', 'reteco-1a', '--data', DATA, join(tmp, 'all.trec'), '-f', 'json'])
        .stdout,
    )
    const dir = JSON.parse(
      cli(['score', '--preset', 'reteco-1a', '--data', DATA, `${F}/runs/1a_random`, '-f', 'json'])
        .stdout,
    )
    expect(whole.reports[0].runLayout).toBe('single-file')
    expect(whole.reports[0].headline.value).toBe(dir.reports[0].headline.value)
  })
  it('2a and 1b (markdown), turn-depth tables', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-2c',
      '--data',
      DATA,
      `${F}/runs/2a_random`,
      '-f',
      'markdown',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/#### Turn depth \(pooled\)/)
    expect(r.stdout).toMatch(/\| T5\+ \|/)
    const b = cli(['score', '--preset', 'reteco-1b', '--data', DATA, `${F}/runs/1b_perfect`])
    expect(b.stdout).toMatch(
      /headline nDCG@10 = 1\.0000 \(per-query mean over steps, then mean over queries\)/,
    )
  })
  it('a malformed run: file:line errors on stderr, exit 2, the other runs still scored', () => {
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      DATA,
      '--domains',
      'bitcoin',
      `${F}/runs/bad_score`,
      `${F}/runs/1a_perfect`,
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/bad_score\/bitcoin\.trec:5: score is not a number: 'n\/a'/)
    expect(r.stderr).toMatch(/bad_score\/bitcoin\.trec:10: score is not a number: '0,75'/)
    expect(r.stdout).toMatch(/headline nDCG@10 = 1\.0000/)
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/)
  })
  it('bad data, a Track 2 single file, a bad label file: clear messages, exit 2', () => {
    const noData = cli(['score', '--preset', 'reteco-1a', '--data', tmp, `${F}/runs/1a_perfect`])
    expect([noData.code, noData.stderr]).toEqual([
      2,
      expect.stringMatching(/not a RETECO data directory/),
    ])
    const single = cli([
      'score',
      '--preset',
      'reteco-2a',
      '--data',
      DATA,
      `${F}/runs/2a_random/biology.trec`,
    ])
    expect([single.code, single.stderr]).toEqual([
      2,
      expect.stringMatching(
        /biology\.trec:1: topic '2_turn_1' is in the qrels of biology and earth_science/,
      ),
    ])
    const bad = join(tmp, 'labels.jsonl')
    writeFileSync(bad, '{"topic": "x", "doc": "d"}\n')
    const labels = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      DATA,
      '--labels',
      bad,
      `${F}/runs/1a_perfect`,
    ])
    expect([labels.code, labels.stderr]).toEqual([
      2,
      expect.stringMatching(/labels\.jsonl:1: "temporally_relevant" must be true or false/),
    ])
  })
})

describe("score --conventions: the organizers' code paths are registered", () => {
  const R = 'test/fixtures/reteco'
  const headline = (conventions: string): unknown => {
    const r = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      `${R}/data`,
      `${R}/runs/1a_missing_queries`,
      '--conventions',
      conventions,
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    return JSON.parse(r.stdout).reports[0].headline.value
  }
  it('plan, official-baseline and scorer-py give their recorded headlines (expected/summary.md)', () => {
    expect(headline('plan')).toBeCloseTo(0.1248, 4)
    expect(headline('official-baseline')).toBe(0.30265)
    expect(headline('scorer-py')).toBeCloseTo(0.2912, 4)
  })
})
