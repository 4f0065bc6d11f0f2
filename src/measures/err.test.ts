import { describe, expect, it } from 'vitest'
import { err } from './err.js'
import { ranking } from './test-helpers.js'

describe('ERR@k (gdeval)', () => {
  // Grades by rank 3, 0, negative, 1, 2: R = 7/16, 0, 0, 1/16, 3/16.
  const q = ranking([3, 0, -2, 1, 2])
  it('hand-computed', () => {
    expect(err(q, 1)).toBe(7 / 16)
    expect(err(q, 3)).toBe(7 / 16)
    // 7/16 + (9/16)(1/16)/4 + (9/16)(15/16)(3/16)/5
    expect(err(q, 5)).toBeCloseTo(0.466064453125, 15)
    expect(err(q, Infinity)).toBeCloseTo(0.466064453125, 15)
  })
  it('no relevant doc: 0; a grade above 4 scales by its own 2^g', () => {
    expect(err(ranking([0, -1, -2]), 10)).toBe(0)
    expect(err(ranking([5]), 10)).toBe(31 / 32)
  })
})
