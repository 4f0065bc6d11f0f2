import { describe, expect, it } from 'vitest'
import { hits } from './hits.js'
import { ranking } from './test-helpers.js'

describe('Hits@k (ranx hits)', () => {
  const A = ranking([2, -1, 0, 1], [1])
  it('counts relevant docs in the top k, all retrieved without a cutoff', () => {
    expect(hits(A, 1)).toBe(1)
    expect(hits(A, 3)).toBe(1)
    expect(hits(A, 4)).toBe(2)
    expect(hits(A, 100)).toBe(2)
    expect(hits(A, Infinity)).toBe(2)
  })
  it('uses the relevance level', () => {
    expect(hits(A, Infinity, 2)).toBe(1)
    expect(hits(ranking([]), 10)).toBe(0)
  })
})
