import { describe, expect, it } from 'vitest'
import { ranking } from './test-helpers.js'
import { yaap } from './yaap.js'

describe('yaap (trec_eval m_yaap.c)', () => {
  it('is ln((1 + S) / (1 + R - S)) with S the sum of precisions at relevant ranks', () => {
    // S = 1/1 + 2/4 = 1.5, R = 3: ln(2.5 / 2.5) = 0
    expect(yaap(ranking([2, -1, 0, 1], [1]))).toBe(0)
    // perfect ranking of R = 1: S = 1, ln(2 / 1)
    expect(yaap(ranking([1]))).toBeCloseTo(Math.LN2, 15)
    // S = 1 + 1 = 2, R = 2: ln 3
    expect(yaap(ranking([1, 1, 0]))).toBeCloseTo(Math.log(3), 15)
    // nothing relevant retrieved of R = 1: ln(1 / 2)
    expect(yaap(ranking([0], [1]))).toBeCloseTo(-Math.LN2, 15)
    // S = 1/2, R = 2: ln(1.5 / 2.5)
    expect(yaap(ranking([0, 1], [1]))).toBeCloseTo(Math.log(1.5 / 2.5), 15)
  })
  it('is 0 with no relevant document and uses the relevance level', () => {
    expect(yaap(ranking([0, 0]))).toBe(0)
    // rel = 2: S = 1/1 (the grade 2 at rank 1), R = 1: ln 2
    expect(yaap(ranking([2, -1, 0, 1], [1]), 2)).toBeCloseTo(Math.LN2, 15)
  })
})
