import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { pairedTTest, wilcoxonTest } from '../../../src/entries/stats.js'

// Cross-check against scipy on 40 generated paired samples (n 3..89, values on a 0.05 grid so
// zero differences and ties occur). Generated once by us with scipy; see "generator" in the file.
interface Case {
  readonly a: number[]
  readonly b: number[]
  readonly t: number
  readonly t_p: number
  readonly wilcoxon_method: 'exact' | 'approx'
  readonly wilcoxon_p: number
}
const ref = JSON.parse(readFileSync(join(import.meta.dirname, 'scipy-reference.json'), 'utf8')) as {
  generator: string
  cases: Case[]
}

describe(`scipy reference (${ref.generator.slice(0, 40)}…)`, () => {
  it('has both exact and approximate Wilcoxon cases', () => {
    expect(ref.cases.filter((c) => c.wilcoxon_method === 'exact').length).toBeGreaterThan(3)
    expect(ref.cases.filter((c) => c.wilcoxon_method === 'approx').length).toBeGreaterThan(3)
  })
  it.each(ref.cases.map((c, i) => [i, c] as const))(
    'case %i: t, its p, and the Wilcoxon p agree to 1e-12',
    (_i, c) => {
      const t = pairedTTest(c.a, c.b)
      expect(t.statistic!).toBeCloseTo(c.t, 10)
      expect(Math.abs(t.p! - c.t_p)).toBeLessThan(1e-12 + 1e-10 * c.t_p)
      const w = wilcoxonTest(c.a, c.b)
      expect(w.exact).toBe(c.wilcoxon_method === 'exact')
      expect(Math.abs(w.p! - c.wilcoxon_p)).toBeLessThan(1e-12)
    },
  )
})
