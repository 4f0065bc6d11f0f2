import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { permutationTest } from '../../../src/entries/stats.js'
import { SLEEP_1, SLEEP_2 } from './fixtures.js'

describe('randomization (sign-flip) test', () => {
  it('hand enumeration: d = (1, 2, 3) → sums ±6 only at all-plus and all-minus: p = 2/8', () => {
    const r = permutationTest([1, 2, 3], [0, 0, 0], { permutations: 8 })
    expect(r).toMatchObject({ exact: true, p: 0.25, statistic: 2 })
  })

  it('hand enumeration: d = (1, −2, 3, 4), sum 6: |Σ s_i d_i| ≥ 6 for 3 sign vectors and their mirrors: p = 6/16', () => {
    expect(permutationTest([1, -2, 3, 4], [0, 0, 0, 0], { permutations: 16 }).p).toBe(0.375)
  })

  it("Student's sleep data, exact over 2^10 = 1024 sign vectors: only all-same-sign vectors (×2 for the zero difference) reach |Σ| = 15.8: p = 4/1024", () => {
    const r = permutationTest(SLEEP_1, SLEEP_2, { permutations: 10000 })
    expect(r.exact).toBe(true)
    expect(r.p).toBe(4 / 1024)
    expect(r.method).toContain('1024 sign vectors')
  })

  it('sampled when 2^n > budget: p = (count + 1)/(B + 1), reproducible by seed, near the exact value', () => {
    const r1 = permutationTest(SLEEP_1, SLEEP_2, { permutations: 1000, seed: 7 })
    const r2 = permutationTest(SLEEP_1, SLEEP_2, { permutations: 1000, seed: 7 })
    expect(r1.exact).toBe(false)
    expect(r1.p).toBe(r2.p)
    // p = (count + 1)/1001 with count an integer: p·1001 is an integer ≥ 1
    expect(Math.abs(r1.p! * 1001 - Math.round(r1.p! * 1001))).toBeLessThan(1e-9)
    expect(r1.p!).toBeGreaterThanOrEqual(1 / 1001)
    expect(r1.p!).toBeLessThan(0.02)
  })

  it('all-zero differences: p = 1', () => {
    expect(permutationTest([0.3, 0.5], [0.3, 0.5]).p).toBe(1)
  })

  it('properties: p in [0, 1], A/B swap keeps p (exact and sampled), identical seeds give identical p', () => {
    const sample = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
      minLength: 1,
      maxLength: 14,
    })
    fc.assert(
      fc.property(sample, sample, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (x, y, seed) => {
        const n = Math.min(x.length, y.length)
        const a = x.slice(0, n)
        const b = y.slice(0, n)
        for (const permutations of [2 ** n, 200]) {
          const ab = permutationTest(a, b, { permutations, seed })
          expect(ab.p!).toBeGreaterThan(0)
          expect(ab.p!).toBeLessThanOrEqual(1)
          // the sampled version draws the same sign vectors for (b, a): |−Σ| = |Σ|
          expect(permutationTest(b, a, { permutations, seed }).p).toBe(ab.p)
          expect(permutationTest(a, b, { permutations, seed }).p).toBe(ab.p)
        }
      }),
      { numRuns: 60 },
    )
  })
})
