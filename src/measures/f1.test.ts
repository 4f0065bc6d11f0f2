import { describe, expect, it } from 'vitest'
import { f1At } from './f1.js'
import { ranking } from './test-helpers.js'

describe('F1@k (ranx f1)', () => {
  const A = ranking([2, -1, 0, 1], [1]) // R = 3, relevant at ranks 1 and 4
  it('is the harmonic mean of P@k and R@k', () => {
    // k = 4: P = 1/2, R = 2/3 -> 2 (1/3) / (7/6) = 4/7
    expect(f1At(A, 4)).toBeCloseTo(4 / 7, 15)
    // k = 10: P = 1/5 (divides by k), R = 2/3 -> 4/13
    expect(f1At(A, 10)).toBeCloseTo(4 / 13, 15)
    // k = 1: P = 1, R = 1/3 -> 1/2
    expect(f1At(A, 1)).toBeCloseTo(0.5, 15)
  })
  it('without a cutoff takes k = the number retrieved', () => {
    expect(f1At(A, Infinity)).toBeCloseTo(4 / 7, 15)
  })
  it('is 0 when P and R are both 0, when R = 0, and for an empty ranking', () => {
    expect(f1At(ranking([0, 0], [1]), 2)).toBe(0)
    expect(f1At(ranking([0, 0]), 2)).toBe(0)
    expect(f1At(ranking([], [1]), Infinity)).toBe(0)
  })
})
