/**
 * Hand-computed values for every measure family, on small rankings worked out on paper.
 * Ranking A: grades by rank [2, -1, 0, 1] with one more relevant doc (grade 1) not retrieved,
 * i.e. basic_tiny query 101 (relstring '2-01'): R = 3, n = 4, relevant at ranks 1 and 4.
 */
import { describe, expect, it } from 'vitest'
import { averagePrecision, averagePrecisionAt, setMap } from './average-precision.js'
import { bpref } from './bpref.js'
import { binG } from './g.js'
import { infAP } from './infap.js'
import { elevenPointAverage, interpolatedPrecision } from './interpolated-precision.js'
import { judgedAt, relString, unjudgedAt } from './judged.js'
import { ndcgAt, ndcgFull } from './ndcg.js'
import {
  precision,
  relativePrecision,
  rPrecision,
  rPrecisionMult,
  setPrecision,
} from './precision.js'
import { rbp, rbpResidual } from './rbp.js'
import { completeness, recall, setRecall } from './recall.js'
import { reciprocalRank, success } from './reciprocal-rank.js'
import { setF } from './set-f.js'
import { ranking } from './test-helpers.js'
import { utility } from './utility.js'

const A = ranking([2, -1, 0, 1], [1])

describe('hand-computed values on ranking A = [2, -1, 0, 1] + one unretrieved relevant', () => {
  it('precision family', () => {
    expect(precision(A, [1, 2, 4, 10])).toEqual([1, 0.5, 0.5, 0.2])
    expect(relativePrecision(A, [1, 2, 5])).toEqual([1, 0.5, 2 / 3])
    expect(rPrecision(A)).toBeCloseTo(1 / 3, 15) // top 3 holds 1 of R = 3
    expect(setPrecision(A)).toBe(0.5)
    // Rprec_mult@1.0: c = trunc(3 + 0.9) = 3 → 1/3; @2.0: c = 6 > n → 2/6
    expect(rPrecisionMult(A, [1.0, 2.0])).toEqual([1 / 3, 2 / 6])
  })
  it('recall family', () => {
    expect(recall(A, [1, 3, 4])).toEqual([1 / 3, 1 / 3, 2 / 3])
    expect(setRecall(A)).toBeCloseTo(2 / 3, 15)
    expect(completeness(A, [4, 100])).toEqual([0, 0])
    expect(completeness(ranking([1, 0, 1]), [1, 3])).toEqual([0, 1])
  })
  it('average precision: (1/1 + 2/4) / 3', () => {
    expect(averagePrecision(A)).toBeCloseTo(0.5, 15)
    expect(averagePrecisionAt(A, [1, 3, 4])).toEqual([1 / 3, 1 / 3, 0.5])
    expect(setMap(A)).toBeCloseTo((2 * 2) / (4 * 3), 15)
  })
  it('reciprocal rank and success', () => {
    expect(reciprocalRank(A)).toBe(1)
    expect(reciprocalRank(ranking([0, 0, 3]))).toBeCloseTo(1 / 3, 15)
    expect(reciprocalRank(ranking([0, 0, 3]), 1, 2)).toBe(0)
    expect(success(ranking([0, 0, 3]), [1, 2, 3])).toEqual([0, 0, 1])
  })
  it('nDCG with grade gains: DCG = 2/log2(2) + 1/log2(5); ideal = 2 + 1/log2(3) + 1/log2(4)', () => {
    const dcg = 2 + 1 / Math.log2(5)
    const idcg = 2 + 1 / Math.log2(3) + 1 / 2
    expect(ndcgFull(A).ndcg).toBeCloseTo(dcg / idcg, 15)
    expect(ndcgAt(A, [Infinity])[0]).toBeCloseTo(dcg / idcg, 15)
    expect(ndcgAt(A, [1])[0]).toBe(1)
    expect(ndcgAt(A, [2])[0]).toBeCloseTo(2 / (2 + 1 / Math.log2(3)), 15)
    // exp gains: 2^2-1 = 3, 2^1-1 = 1
    expect(ndcgAt(A, [4], { kind: 'exp' })[0]).toBeCloseTo(
      (3 + 1 / Math.log2(5)) / (3 + 1 / Math.log2(3) + 1 / 2),
      15,
    )
    expect(ndcgAt(ranking([0, 0], [0]), [10])[0]).toBe(0)
  })
  it('bpref: judged non-relevant docs N = 1; the grade-1 doc at rank 4 has one above it', () => {
    // rel at rank 1: +1; rel at rank 4: 1 - min(1,3)/min(1,3) = 0  → 1/3
    expect(bpref(A)).toBeCloseTo(1 / 3, 15)
  })
  it('infAP on complete judgments: smoothed AP', () => {
    // j=0 rel: +1. j=3 rel (the -1 doc is skipped): 1/4 + (3/4)*((1+1+0)/3)*((1+e)/(1+1+2e))
    const e = 0.00001
    const v = (1 + (1 / 4 + (3 / 4) * (2 / 3) * ((1 + e) / (2 + 2 * e)))) / 3
    expect(infAP(A)).toBeCloseTo(v, 15)
  })
  it('interpolated precision and 11-point average', () => {
    // R = 3: recall 0.3 → 1 doc: max precision from rank 1 on = 1; 0.5 → 2 docs: rank 4, P = 0.5;
    // 1.0 → 3 docs: never reached → 0
    expect(interpolatedPrecision(A, [0, 0.3, 0.5, 1])).toEqual([1, 1, 0.5, 0])
    expect(elevenPointAverage(A, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1])).toBeCloseTo(
      (5 * 1 + 4 * 0.5) / 11,
      15,
    )
  })
  it('judged / unjudged / relstring', () => {
    expect(unjudgedAt(A, [2, 10])).toEqual([0.5, 0.1])
    expect(judgedAt(A, [2, 10])).toEqual([0.5, 0.75])
    // A negative label (UNJUDGED, -2) is in the qrels: judged for Judged, unjudged for unj.
    const neg = ranking([-2, 1, -1], [])
    expect(judgedAt(neg, [1, 3, Infinity])).toEqual([1, 2 / 3, 2 / 3])
    expect(unjudgedAt(neg, [1, 3])).toEqual([1, 2 / 3])
    expect(relString(A, 10)).toBe('2-01')
    expect(relString(ranking([12, -2, 3]), 2)).toBe('>.')
  })
  it('RBP: grades scaled by the top grade when above 1', () => {
    // gains 2→1, 1→0.5: (1-0.9) * (1 + 0.5 * 0.9^3)
    expect(rbp(A, 0.9)).toBeCloseTo(0.1 * (1 + 0.5 * 0.729), 15)
    // residual: one unjudged doc at rank 2: 0.9^4 + 0.1 * 0.9
    expect(rbpResidual(A, 0.9)).toBeCloseTo(0.9 ** 4 + 0.1 * 0.9, 15)
    expect(rbpResidual(ranking([1, 0]), 0.9)).toBe(0)
  })
  it('set F (beta not squared), utility, binG', () => {
    const P = 0.5
    const R = 2 / 3
    expect(setF(A)).toBeCloseTo((2 * P * R) / (P + R), 15)
    expect(setF(A, 2)).toBeCloseTo((3 * P * R) / (2 * P + R), 15)
    expect(utility(A, [1, -1, 0, 0], 0)).toBe(2 - 2)
    // binG: rel at rank 1 (0 non-rel above): 1/log2(2); rank 4 (2 above): 1/log2(4)
    expect(binG(A)).toBeCloseTo((1 + 0.5) / 3, 15)
  })
  it('edge cases: empty ranking, nothing relevant', () => {
    const E = ranking([], [1, 2])
    expect(precision(E, [5])).toEqual([0])
    expect(averagePrecision(E)).toBe(0)
    expect(reciprocalRank(E)).toBe(0)
    expect(ndcgAt(E, [10])).toEqual([0])
    const N = ranking([0, 0, -1])
    expect(recall(N, [10])).toEqual([0])
    expect(averagePrecisionAt(N, [10])).toEqual([0])
  })
})

describe('gains maps: grades the map does not list keep gain = grade (trec_eval setup_gains, ir_measures gains.get(g, g))', () => {
  // Ranked grades [0, 2, 3, 1]; map {0:0, 1:1, 2:3}: grade 3 is unlisted and gains 3.
  const Q = ranking([0, 2, 3, 1])
  const gains = { kind: 'map', gains: { 0: 0, 1: 1, 2: 3 } } as const
  it('nDCG on a hand-computed ranking', () => {
    const dcg = 3 / Math.log2(3) + 3 / Math.log2(4) + 1 / Math.log2(5)
    const idcg = 3 / Math.log2(2) + 3 / Math.log2(3) + 1 / Math.log2(4)
    expect(ndcgAt(Q, [Infinity], gains)[0]).toBeCloseTo(dcg / idcg, 15)
    // The old behaviour (unlisted grades gain 0) gave (3/log2 3 + 1/log2 5) / (3 + 1/log2 3).
    expect(ndcgAt(Q, [Infinity], gains)[0]).not.toBeCloseTo(
      (3 / Math.log2(3) + 1 / Math.log2(5)) / (3 + 1 / Math.log2(3)),
      3,
    )
  })
  it('equals trec_eval ndcg with the same pairs (ndcgFull)', () => {
    const pairs = [
      { name: '0', value: 0 },
      { name: '1', value: 1 },
      { name: '2', value: 3 },
    ]
    expect(ndcgAt(Q, [Infinity], gains)[0]).toBeCloseTo(ndcgFull(Q, pairs).ndcg, 15)
    const B = ranking([3, -1, 1, 0, 2], [3, 2])
    expect(ndcgAt(B, [Infinity], gains)[0]).toBeCloseTo(ndcgFull(B, pairs).ndcg, 15)
  })
})

describe('IPrec recall rounding: trec_eval 10 lround(r·R) vs 9.0.8 (long)(r·R + 0.9)', () => {
  // R = 3, relevant at ranks 1, 4, 5. r = 0.4: r·R = 1.2 → lround 1 (from rank 1 on: P = 1),
  // plus-0.9: 2 (from rank 4 on: max(2/4, 3/5) = 0.6).
  const Q = ranking([1, 0, 0, 1, 1])
  it('differs where the fraction of r·R is in [0.1, 0.5)', () => {
    expect(interpolatedPrecision(Q, [0.4], 'lround')).toEqual([1])
    expect(interpolatedPrecision(Q, [0.4], 'plus-0.9')).toEqual([0.6])
    // r·R = 1.8: both give 2.
    expect(interpolatedPrecision(Q, [0.6], 'lround')).toEqual(
      interpolatedPrecision(Q, [0.6], 'plus-0.9'),
    )
  })
})

describe('rel parameters of SetF, infAP and Bpref count R at rel, not at the conventions level', () => {
  // Level 1 ranking; grades [2, 1, 0, 2] + unretrieved [2, 1]: at rel = 2, R = 3, relRet = 2.
  const Q = ranking([2, 1, 0, 2], [2, 1])
  const Q2 = ranking([2, 1, 0, 2], [2, 1], 2)
  it('SetF(rel=2): P = 2/4, R = 2/3', () => {
    const P = 0.5
    const R = 2 / 3
    expect(setF(Q, 1, 2)).toBeCloseTo((2 * P * R) / (P + R), 15)
    expect(setF(Q, 1, 2)).toBe(setF(Q2, 1))
  })
  it('infAP(rel=2) and Bpref(rel=2) equal their values at level 2', () => {
    expect(infAP(Q, 2)).toBe(infAP(Q2))
    expect(bpref(Q, 2)).toBe(bpref(Q2))
    // bpref at 2: N = 2 judged below 2 (grades 1, 0 retrieved; 1 unretrieved → N = 3), R = 3;
    // rank 1: +1; rank 4: two judged non-relevant above → 1 − min(2,3)/min(3,3) = 1/3.
    expect(bpref(Q, 2)).toBeCloseTo((1 + 1 / 3) / 3, 15)
  })
})
