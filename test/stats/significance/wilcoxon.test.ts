import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signedRankCounts, wilcoxonTest } from '../../../src/entries/stats.js'
import { DEPRESSION_X, DEPRESSION_Y, SLEEP_1, SLEEP_2 } from './fixtures.js'

describe('Wilcoxon signed-rank test', () => {
  it('exact null counts for n = 3: sums 0..6 of subsets of {1,2,3} are 1,1,1,2,1,1,1', () => {
    expect(signedRankCounts(3)).toEqual([1, 1, 1, 2, 1, 1, 1])
    expect(signedRankCounts(9).reduce((s, c) => s + c, 0)).toBe(512)
  })

  it('Hollander & Wolfe (1973) p. 29 depression data (R ?wilcox.test): V = 40, exact two-sided p = 20/512', () => {
    const r = wilcoxonTest(DEPRESSION_X, DEPRESSION_Y)
    expect(r.statistic).toBe(40)
    expect(r.exact).toBe(true)
    expect(r.p).toBe(20 / 512)
    // Swapped: V = 45 − 40 = 5, same two-sided p.
    expect(wilcoxonTest(DEPRESSION_Y, DEPRESSION_X)).toMatchObject({ statistic: 5, p: 20 / 512 })
  })

  it('hand computation, exact: d = (1, 2, 3, 4, 5, 6) all positive: V = 21, p = 2/64', () => {
    expect(wilcoxonTest([1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, 0])).toMatchObject({
      statistic: 21,
      p: 2 / 64,
      exact: true,
    })
  })

  it('zeros are dropped (Wilcoxon): d = (0, 0, 1, 2, 3) is the exact test on n = 3, p = 2/8', () => {
    const r = wilcoxonTest([0, 5, 1, 2, 3], [0, 5, 0, 0, 0])
    expect(r).toMatchObject({ statistic: 6, p: 0.25, exact: true, zeros: 2, nonZero: 3 })
    expect(r.method).toContain('2 zero difference(s) dropped')
  })

  it('hand computation, normal approximation with ties: d = (1, 1, 2, −3, 4, 4, 4)', () => {
    // |d| ranks: 1,1 → 1.5; 2 → 3; 3 → 4; 4,4,4 → 6. V = 1.5+1.5+3+6+6+6 = 24.
    // μ = 7·8/4 = 14; σ² = 7·8·15/24 − ((2³−2) + (3³−3))/48 = 35 − 30/48 = 34.375;
    // z = (24 − 14 − 0.5)/√34.375; p = 2·P(Z ≥ z). (scipy 1.17.1 wilcoxon(..., correction=True, method='approx') agrees.)
    const r = wilcoxonTest([1, 1, 2, -3, 4, 4, 4], [0, 0, 0, 0, 0, 0, 0])
    expect(r.statistic).toBe(24)
    expect(r.exact).toBe(false)
    const z = 9.5 / Math.sqrt(34.375)
    expect(z).toBeCloseTo(1.6203, 4)
    expect(r.p!).toBeCloseTo(2 * 0.0525812, 6) // P(Z ≥ 1.6203) = 0.0525812 (normal table)
  })

  it("Student's sleep data (a zero and tied differences): V = 0, normal approximation p = 0.0090907 (scipy 1.17.1, correction=True)", () => {
    // Non-zero |d| (n = 9): 1.2 2.4 1.3 1.3 1.0 1.8 0.8 4.6 1.4, all negative: V = 0;
    // μ = 22.5, σ² = 9·10·19/24 − (2³ − 2)/48 = 71.125, z = (0 − 22.5 + 0.5)/√71.125 = −2.6086.
    const r = wilcoxonTest(SLEEP_1, SLEEP_2)
    expect(r.statistic).toBe(0)
    expect(r.exact).toBe(false)
    expect(r.p!).toBeCloseTo(0.0090907, 6)
  })

  it('no non-zero difference: not run', () => {
    expect(wilcoxonTest([1, 2], [1, 2])).toMatchObject({ statistic: null, p: null })
  })

  it('properties: p in (0, 1], A/B swap keeps p', () => {
    const sample = fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 60 })
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const n = Math.min(x.length, y.length)
        const ab = wilcoxonTest(x.slice(0, n), y.slice(0, n))
        const ba = wilcoxonTest(y.slice(0, n), x.slice(0, n))
        if (ab.p === null) return
        expect(ab.p).toBeGreaterThan(0)
        expect(ab.p).toBeLessThanOrEqual(1)
        expect(ba.p).toBeCloseTo(ab.p, 12)
      }),
    )
  })
})
