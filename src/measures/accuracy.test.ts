import { describe, expect, it } from 'vitest'
import { accuracy } from './accuracy.js'
import { ranking } from './test-helpers.js'

describe('Accuracy (ir_measures accuracy provider)', () => {
  it('is the share of (relevant, non-relevant) pairs in the right order', () => {
    // [R, N, N, R]: pairs (r1,n2) (r1,n3) right, (r4,n2) (r4,n3) wrong -> 2/4
    expect(accuracy(ranking([2, -1, 0, 1], [1]), Infinity)).toBe(0.5)
    // [N, R, R, N, R]: nonrel before the relevant docs 1, 1, 2 over 3 x 2 pairs -> 1 - 4/6
    expect(accuracy(ranking([0, 1, 1, 0, 1]), Infinity)).toBeCloseTo(1 / 3, 15)
    expect(accuracy(ranking([1, 0, 0]), Infinity)).toBe(1)
    expect(accuracy(ranking([0, 0, 1]), Infinity)).toBe(0)
  })
  it('looks only at the top k, and counts unjudged docs as non-relevant', () => {
    expect(accuracy(ranking([2, -1, 0, 1], [1]), 2)).toBe(1)
    expect(accuracy(ranking([-1, 1]), 2)).toBe(0)
  })
  it('is undefined without a relevant or without a non-relevant doc in the top k', () => {
    expect(accuracy(ranking([0, 0], [1]), Infinity)).toBeNull()
    expect(accuracy(ranking([1, 1, 0]), 2)).toBeNull()
    expect(accuracy(ranking([]), Infinity)).toBeNull()
  })
})
