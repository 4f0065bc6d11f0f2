/**
 * Hand-computed C/W/L values. W_i = Π_{j<i} C_j / Σ_m Π_{j<m} C_j, EU = Σ W_i g_i, on short
 * lists (N items instead of cwl_eval's 1000 where the model does not stop by itself).
 */
import { describe, expect, it } from 'vitest'
import { InputError } from '../errors/trecscore-error.js'
import { averagePrecisionRetrieved } from './average-precision.js'
import {
  bpmMeasure,
  CWL_DEPTH,
  cwlGain,
  cwlGains,
  expectedUtility,
  insqC,
  instC,
  rbpResidualCwl,
} from './cwl.js'
import { parseMeasure } from './name.js'
import { rbpScaled } from './rbp.js'
import { ranking } from './test-helpers.js'

const g = (...xs: number[]) => Float64Array.from(xs)

describe('C/W/L gains', () => {
  it('graded: min(max(grade, 0), max_rel)/max_rel; binary: grade >= rel', () => {
    expect([4, 3, 2, 0, -1, -2].map((x) => cwlGain(x, 1, 3))).toEqual([1, 1, 2 / 3, 0, 0, 0])
    expect([2, 1, 0, -1, -2].map((x) => cwlGain(x, 2, undefined))).toEqual([1, 0, 0, 0, 0])
  })
  it('cuts or pads every ranking to 1000 items', () => {
    expect(CWL_DEPTH).toBe(1000)
    const long = cwlGains(ranking(new Array<number>(1200).fill(1)), 1, undefined)
    expect(long.length).toBe(1000)
    expect(long[999]).toBe(1)
    const short = cwlGains(ranking([1, 0]), 1, undefined)
    expect(short.length).toBe(1000)
    expect([short[0], short[1], short[2]]).toEqual([1, 0, 0])
  })
})

describe('expected utility of each user model, by hand', () => {
  it('SDCG@k: DCG@k over the DCG@k of k docs of gain 1', () => {
    const sdcg = (k: number) => (i: number) => (i < k ? Math.log2(i + 1) / Math.log2(i + 2) : 0)
    const gains = g(1, 0, 0, 2 / 3, 0, 0)
    expect(expectedUtility(gains, sdcg(2))).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 14)
    expect(expectedUtility(gains, sdcg(4))).toBeCloseTo(
      (1 + 2 / 3 / Math.log2(5)) / (1 + 1 / Math.log2(3) + 1 / 2 + 1 / Math.log2(5)),
      14,
    )
  })
  it('NERR8@3 on gains [1/3, 0, 1]: C = 2/3, 1, 0 → W = [3, 2, 2]/7 → 3/7', () => {
    expect(expectedUtility(g(1 / 3, 0, 1, 0, 0), (i, x) => (i < 3 ? 1 - x : 0))).toBeCloseTo(
      3 / 7,
      15,
    )
  })
  it('NERR9@3 on gains [1/3, 0, 1]: C = 1/3, 2/3, 0 → prods 1, 1/3, 2/9 → 5/14', () => {
    expect(
      expectedUtility(g(1 / 3, 0, 1, 0), (i, x) => (i < 3 ? (i / (i + 1)) * (1 - x) : 0)),
    ).toBeCloseTo(5 / 14, 15)
  })
  it('BPM: stops at T gain or at rank K', () => {
    const bpm = (T: number, K: number) => (i: number, _x: number, cum: number) =>
      cum < T && i < K ? 1 : 0
    // T = 1: C_1 = 1 (no gain yet), C_2 = 0 (gain 1 reached) → W = [1/2, 1/2]
    expect(expectedUtility(g(0, 1, 1, 1), bpm(1, 10))).toBe(0.5)
    // K = 3 binds: W = [1/3, 1/3, 1/3] over gains 1, 0, 1
    expect(expectedUtility(g(1, 0, 1, 1), bpm(5, 3))).toBeCloseTo(2 / 3, 15)
  })
  it('INSQ(T=1), 3 items, gains [1, 0, 0]: C = 4/9, 9/16 → 36/61', () => {
    expect(expectedUtility(g(1, 0, 0), insqC(1))).toBeCloseTo(36 / 61, 15)
  })
  it('INST(T=1), 3 items, gains [1, 0, 0]: T_i = 0, C_i = (i/(i+1))² → 36/49', () => {
    expect(expectedUtility(g(1, 0, 0), instC(1))).toBeCloseTo(36 / 49, 15)
  })
  it('NERR10(p=0.5), gains [0, 1, 0]: prods 1, 1/2, 0 → 1/3', () => {
    expect(expectedUtility(g(0, 1, 0), (_i, x) => 0.5 * (1 - x))).toBeCloseTo(1 / 3, 15)
  })
  it('NERR11(T=1), gains [0, 1/2, 0]: prods 1, 4/9, 1/8 → 16/113', () => {
    const sq = insqC(1)
    expect(expectedUtility(g(0, 0.5, 0), (i, x) => sq(i) * (1 - x))).toBeCloseTo(16 / 113, 15)
  })
})

describe('RBP with fixed-scale gains and its cwl residual', () => {
  it('RBP(p=0.5,max_rel=3) on [3, -1, 2, -2, 1]: 0.5(1 + 0.25·2/3 + 0.0625·1/3) = 57/96', () => {
    expect(rbpScaled(ranking([3, -1, 2, -2, 1]), 0.5, 3, 5)).toBeCloseTo(57 / 96, 15)
  })
  it('residual, N = 4: unjudged rank 2 and padded rank 4 gain 1 → (4 + 1)/15', () => {
    expect(rbpResidualCwl(ranking([1, -1, 0]), 0.5, 4)).toBeCloseTo(1 / 3, 15)
  })
  it('a negative judgment is judged (gain 0), not part of the residual', () => {
    // N = 2: only the padded rank 2 counts: W = [2/3, 1/3]
    expect(rbpResidualCwl(ranking([-2]), 0.5, 2)).toBeCloseTo(1 / 3, 15)
  })
  it('no unjudged doc and a full list: residual 0', () => {
    expect(rbpResidualCwl(ranking([1, 0]), 0.5, 2)).toBe(0)
  })
})

describe("AP(denominator='retrieved')", () => {
  it('[2, -1, 0, 1] + one unretrieved relevant: (1/1 + 2/4)/2, not /3', () => {
    const A = ranking([2, -1, 0, 1], [1])
    expect(averagePrecisionRetrieved(A, 1)).toBe(0.75)
    expect(averagePrecisionRetrieved(A, 1, 3)).toBe(1)
    expect(averagePrecisionRetrieved(ranking([0, -1]), 1)).toBe(0)
  })
})

describe('names', () => {
  it('canonical names drop defaults; rel and max_rel exclude each other', () => {
    expect(parseMeasure('INST(T=1.0,max_rel=3)')[0]!.name).toBe('INST(max_rel=3)')
    expect(parseMeasure('BPM(T=2.0,max_rel=3)@20')[0]!.spec).toBe(bpmMeasure)
    expect(parseMeasure("AP(rel=1,denominator='retrieved')")[0]!.name).toBe(
      "AP(denominator='retrieved',rel=1)",
    )
    expect(() => parseMeasure('RBP(p=0.5,rel=1,max_rel=3)')).toThrow(InputError)
    expect(() => parseMeasure('INSQ(rel=1,max_rel=3)')).toThrow(/rel or max_rel, not both/)
    expect(() => parseMeasure('SDCG(max_rel=3)')).toThrow(InputError)
  })
})
