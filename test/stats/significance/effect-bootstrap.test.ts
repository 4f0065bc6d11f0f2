import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bootstrapTest,
  cohensDz,
  pairedEffect,
  pairedTTest,
  quantileSorted,
} from '../../../src/entries/stats.js'
import { SLEEP_1, SLEEP_2 } from './fixtures.js'

describe("effect sizes: mean difference, bootstrap CI, Cohen's d_z", () => {
  it("Student's sleep data: mean difference −1.58, d_z = t/√n = −4.06213/√10 = −1.28456", () => {
    const e = pairedEffect(SLEEP_1, SLEEP_2, { resamples: 2000, seed: 1 })
    expect(e.meanDifference).toBeCloseTo(-1.58, 12)
    expect(e.cohensDz!).toBeCloseTo(-1.28456, 5)
    expect(e.cohensDz!).toBeCloseTo(pairedTTest(SLEEP_1, SLEEP_2).statistic! / Math.sqrt(10), 12)
    // The percentile CI lies around the mean and near R's t interval (−2.4599, −0.7001).
    const [lo, hi] = e.ci!
    expect(lo).toBeLessThan(-1.58)
    expect(hi).toBeGreaterThan(-1.58)
    expect(lo).toBeGreaterThan(-2.7)
    expect(hi).toBeLessThan(-0.6)
  })

  it('hand computation: d = (1, 2, 3): d_z = 2/1 = 2; constant differences: CI [c, c], d_z undefined', () => {
    expect(cohensDz([2, 4, 6], [1, 2, 3])).toBe(2)
    const e = pairedEffect([3, 5, 7], [1, 3, 5])
    expect(e.ci).toEqual([2, 2])
    expect(e.cohensDz).toBeNull()
    expect(pairedEffect([1], [0]).ci).toBeNull()
  })

  it('type-7 quantile (R default): quantile(1:5, 0.25) = 2, quantile(c(1, 2, 4, 8), 0.5) = 3', () => {
    expect(quantileSorted([1, 2, 3, 4, 5], 0.25)).toBe(2)
    expect(quantileSorted([1, 2, 4, 8], 0.5)).toBe(3)
  })

  it('seeded: identical seeds give identical CIs', () => {
    expect(pairedEffect(SLEEP_1, SLEEP_2, { seed: 9 }).ci).toEqual(
      pairedEffect(SLEEP_1, SLEEP_2, { seed: 9 }).ci,
    )
  })
})

describe('paired bootstrap test (shift method)', () => {
  it("Student's sleep data: a small p (the t-test gives 0.0028), of the form (count + 1)/(B + 1), reproducible by seed", () => {
    const r = bootstrapTest(SLEEP_1, SLEEP_2, { resamples: 5000, seed: 3 })
    expect(r.statistic).toBeCloseTo(-1.58, 12)
    expect(r.p!).toBeLessThan(0.01)
    expect(r.p!).toBeGreaterThanOrEqual(1 / 5001)
    expect(Math.abs(r.p! * 5001 - Math.round(r.p! * 5001))).toBeLessThan(1e-9)
    expect(bootstrapTest(SLEEP_1, SLEEP_2, { resamples: 5000, seed: 3 }).p).toBe(r.p)
  })

  it('zero mean difference: every resample is as extreme, p = 1; n < 2: not run', () => {
    expect(bootstrapTest([1, 2, 3], [2, 2, 2]).p).toBe(1)
    expect(bootstrapTest([1], [2]).p).toBeNull()
  })

  it('properties: p in (0, 1]; swapping A and B keeps p (same seed: the resampled indices are the same)', () => {
    const sample = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
      minLength: 2,
      maxLength: 20,
    })
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const n = Math.min(x.length, y.length)
        const ab = bootstrapTest(x.slice(0, n), y.slice(0, n), { resamples: 200 })
        const ba = bootstrapTest(y.slice(0, n), x.slice(0, n), { resamples: 200 })
        expect(ab.p!).toBeGreaterThan(0)
        expect(ab.p!).toBeLessThanOrEqual(1)
        expect(ba.p).toBe(ab.p)
      }),
      { numRuns: 50 },
    )
  })
})
