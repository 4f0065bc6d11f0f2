import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  lnGamma,
  normalSf,
  regularizedIncompleteBeta,
  studentTTwoSided,
} from '../../../src/entries/stats.js'

describe('special functions', () => {
  it('lnGamma matches factorials and Γ(1/2) = √π', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 14)
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 13)
    expect(lnGamma(11)).toBeCloseTo(Math.log(3628800), 12)
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13)
  })

  it('incomplete beta: closed forms I_x(a, 1) = x^a and I_x(1, b) = 1 − (1 − x)^b', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
      expect(regularizedIncompleteBeta(x, 3, 1)).toBeCloseTo(x ** 3, 13)
      expect(regularizedIncompleteBeta(x, 1, 4)).toBeCloseTo(1 - (1 - x) ** 4, 13)
      // symmetry I_x(a, b) = 1 − I_{1−x}(b, a)
      expect(regularizedIncompleteBeta(x, 2.5, 7)).toBeCloseTo(
        1 - regularizedIncompleteBeta(1 - x, 7, 2.5),
        13,
      )
    }
  })

  it('t tails: exact closed forms for df 1 (Cauchy) and df 2', () => {
    for (const t of [0.1, 0.5, 1, 2.5, 10, 100]) {
      // df 1: P(|T| ≥ t) = 1 − (2/π) atan(t)
      expect(studentTTwoSided(t, 1)).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(t), 13)
      // df 2: P(|T| ≥ t) = 1 − t / √(2 + t²)
      expect(studentTTwoSided(-t, 2)).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 13)
    }
    expect(studentTTwoSided(0, 7)).toBe(1)
  })

  // Critical values t_{0.975, df} (two-sided 5%) and t_{0.995, df} (two-sided 1%) from a standard
  // t-table (e.g. Rice, Mathematical Statistics and Data Analysis, 3rd ed., Table 4; NIST/SEMATECH
  // e-Handbook §1.3.6.7.2), printed to 3 decimals: p at the printed value is within ~5e-4 of 0.05 / 0.01.
  const table5: [number, number][] = [
    [1, 12.706],
    [2, 4.303],
    [5, 2.571],
    [9, 2.262],
    [10, 2.228],
    [20, 2.086],
    [30, 2.042],
    [100, 1.984],
  ]
  const table1: [number, number][] = [
    [1, 63.657],
    [5, 4.032],
    [10, 3.169],
    [30, 2.75],
  ]
  it.each(table5)('t-table 5%%: df %i, t = %f', (df, t) => {
    expect(Math.abs(studentTTwoSided(t, df) - 0.05)).toBeLessThan(5e-4)
  })
  it.each(table1)('t-table 1%%: df %i, t = %f', (df, t) => {
    expect(Math.abs(studentTTwoSided(t, df) - 0.01)).toBeLessThan(2e-4)
  })

  it('normal tail: Φ(1.96) = 0.9750021, Φ(2.5758) ≈ 0.995, P(Z ≥ 0) = 1/2 (standard normal table)', () => {
    expect(normalSf(1.96)).toBeCloseTo(1 - 0.9750021048517795, 12)
    expect(normalSf(2.5758293035489)).toBeCloseTo(0.005, 12)
    expect(normalSf(0)).toBeCloseTo(0.5, 15)
    expect(normalSf(-1)).toBeCloseTo(1 - normalSf(1), 15)
    expect(normalSf(1)).toBeCloseTo(0.15865525393145707, 14)
  })

  it('a t tail approaches the normal tail as df grows', () => {
    expect(studentTTwoSided(1.96, 1e7)).toBeCloseTo(2 * normalSf(1.96), 6)
  })

  it('p is in [0, 1] and even in t (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        (t, df) => {
          const p = studentTTwoSided(t, df)
          expect(p).toBeGreaterThanOrEqual(0)
          expect(p).toBeLessThanOrEqual(1)
          expect(studentTTwoSided(-t, df)).toBe(p)
        },
      ),
    )
  })
})
