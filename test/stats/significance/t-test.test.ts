import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pairedTTest } from '../../../src/entries/stats.js'
import { SLEEP_1, SLEEP_2 } from './fixtures.js'

describe('paired t-test', () => {
  it("Student's sleep data (R's sleep): t = -4.0621, df 9, p = 0.002833", () => {
    const r = pairedTTest(SLEEP_1, SLEEP_2)
    expect(r.df).toBe(9)
    expect(r.statistic!).toBeCloseTo(-4.0621, 4)
    expect(r.p!).toBeCloseTo(0.002833, 6)
    expect(r.method).toBe('t distribution, df 9')
  })

  it('hand computation: d = (1, 2, 3): mean 2, sd 1, t = 2√3, df 2, p = 1 − t/√(2 + t²) = 1 − √(12/14)', () => {
    const r = pairedTTest([2, 4, 6], [1, 2, 3])
    expect(r.statistic!).toBeCloseTo(2 * Math.sqrt(3), 12)
    expect(r.p!).toBeCloseTo(1 - Math.sqrt(12 / 14), 12)
  })

  it('degenerate cases are named: all-zero differences p = 1, constant non-zero p = 0, n < 2 not run', () => {
    expect(pairedTTest([1, 2, 3], [1, 2, 3])).toMatchObject({ statistic: null, p: 1 })
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toMatchObject({ statistic: Infinity, p: 0 })
    expect(pairedTTest([1], [0])).toMatchObject({ statistic: null, p: null })
    expect(() => pairedTTest([1, 2], [1])).toThrow(RangeError)
  })

  it('p in [0, 1]; swapping A and B flips t and keeps p (property)', () => {
    const sample = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
      minLength: 2,
      maxLength: 30,
    })
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const n = Math.min(x.length, y.length)
        const a = x.slice(0, n)
        const b = y.slice(0, n)
        const ab = pairedTTest(a, b)
        const ba = pairedTTest(b, a)
        expect(ab.p!).toBeGreaterThanOrEqual(0)
        expect(ab.p!).toBeLessThanOrEqual(1)
        expect(ba.p).toBeCloseTo(ab.p!, 12)
        if (ab.statistic !== null && Number.isFinite(ab.statistic))
          expect(ba.statistic).toBeCloseTo(-ab.statistic, 9)
      }),
    )
  })
})
