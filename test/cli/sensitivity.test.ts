import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-sensitivity-'))
const file = (name: string, text: string): string => {
  const p = join(tmp, name)
  writeFileSync(p, text)
  return p
}
// q1: a relevant. Run x's q1 scores differ beyond float32 precision: read as float32 they tie
// at 1 and doc id descending puts z and y before a (RR 1 -> 1/3); run y finds a second (RR 1/2).
const qrels = file('qrels.txt', 'q1 0 a 1\nq1 0 b 0\n')
const x = file('x.run', 'q1 Q0 a 1 1.00000003 x\nq1 Q0 z 2 1.00000002 x\nq1 Q0 y 3 1.00000001 x\n')
const y = file('y.run', 'q1 Q0 d 1 2 y\nq1 Q0 a 2 1 y\n')

describe('trecscore evaluate --sensitivity', () => {
  it('prints every alternative and flags the float32 ranking swap (table)', () => {
    const r = cli(['evaluate', qrels, `x=${x}`, `y=${y}`, '-m', 'RR', '--sensitivity'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe(
      'convention sensitivity: 2 run(s), 1 measure(s); each convention varied alone, the others as chosen',
    )
    expect(lines).toContain('  score precision: chosen float64')
    expect(lines).toContain(
      '  not varied: unknown docs (not in the corpus) (no corpus id list given (--corpus))',
    )
    const float32 = lines.findIndex((l) => /^score precision\s+float32\s+x\s+RR/.test(l))
    expect(lines[float32]!.split(/\s{2,}/)).toEqual([
      'score precision',
      'float32',
      'x',
      'RR',
      '1.0000',
      '0.3333',
      '-0.6667',
      '1',
    ])
    expect(lines).toContain('ranking of the runs: changes under score precision float32 (RR)')
    const swap = lines.filter((l) => /^score precision\s+float32\s+RR\s/.test(l))
    expect(swap.map((l) => l.split(/\s{2,}/))).toEqual([
      ['score precision', 'float32', 'RR', '-1.0000', 'x > y becomes y > x'],
    ])
  })

  it('writes the model as JSON, with the pair and tau of the swap', () => {
    const r = cli([
      'evaluate',
      qrels,
      `x=${x}`,
      `y=${y}`,
      '-m',
      'RR',
      '--sensitivity',
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.schema).toBe('trecscore.sensitivity/1')
    expect(j.runs).toEqual(['x', 'y'])
    expect(j.chosen).toEqual([[1], [0.5]])
    const precision = j.conventions.find(
      (c: { convention: string }) => c.convention === 'scorePrecision',
    )
    expect(precision.chosen).toBe('float64')
    expect(precision.alternatives).toHaveLength(1)
    const alt = precision.alternatives[0]
    expect(alt.value).toBe('float32')
    expect(alt.cells.map((row: { score: number }[]) => row[0]!.score)).toEqual([1 / 3, 0.5])
    expect(alt.rankings).toEqual([{ measure: 'RR', tau: -1, swaps: [['x', 'y']] }])
    // Every other convention leaves both runs in place.
    const others = j.conventions
      .filter((c: { convention: string }) => c.convention !== 'scorePrecision')
      .flatMap((c: { alternatives: { rankings: { swaps: unknown[] }[] }[] }) => c.alternatives)
      .flatMap((a: { rankings: { swaps: unknown[] }[] }) => a.rankings)
    expect(others.length).toBeGreaterThan(0)
    expect(others.every((g: { swaps: unknown[] }) => g.swaps.length === 0)).toBe(true)
  })

  it('the chosen float32 profile sees the swap the other way round', () => {
    const r = cli([
      'evaluate',
      qrels,
      `x=${x}`,
      `y=${y}`,
      '-m',
      'RR',
      '--profile',
      'trec-eval-v9',
      '--sensitivity',
      '-f',
      'json',
    ])
    const j = JSON.parse(r.stdout)
    expect(j.chosen).toEqual([[1 / 3], [0.5]])
    const alt = j.conventions.find((c: { convention: string }) => c.convention === 'scorePrecision')
      .alternatives[0]
    expect(alt.value).toBe('float64')
    expect(alt.rankings[0]).toEqual({ measure: 'RR', tau: -1, swaps: [['y', 'x']] })
  })

  it('refuses formats it cannot write, with a one-line error', () => {
    const r = cli(['evaluate', qrels, x, '-m', 'RR', '--sensitivity', '-f', 'csv'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe('trecscore: --sensitivity writes table or json, not --format csv')
  })
})
