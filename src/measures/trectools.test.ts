/**
 * Hand-computed values of the trectools 0.0.50 measures: RBP and its residual with averaged ties
 * (rbp.ts, cwl.ts, ties.ts), uRBP and alpha-uRBP (urbp.ts), uBpref (ubpref.ts).
 *
 * Query 1: qrels A 2, B 0, C 1, D 0; understandability A 80, B 40, C 50 (D none). Run A 3, B 2,
 * C 2, X 1 (unjudged), D 0.5; by score, ties by docno ascending: A B C X D. p = 0.5: rank weights
 * .5 .25 .125 .0625 .03125, and B, C (tied at 2) both get (.25 + .125)/2 = .1875.
 */
import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { parseRun } from '../io/read.js'
import { parseQrels } from '../io/trec-qrels.js'
import { prepareQuery } from '../rank/prepare.js'
import type { Measure } from './measure.js'
import { measureParams, parseMeasure } from './name.js'
import { ubpref } from './ubpref.js'

const QRELS = '1 0 A 2\n1 0 B 0\n1 0 C 1\n1 0 D 0\n'
const AUX = '1 0 A 80\n1 0 B 40\n1 0 C 50\n'
const RUN = '1 Q0 A 1 3 t\n1 Q0 B 2 2 t\n1 Q0 C 3 2 t\n1 Q0 X 4 1 t\n1 Q0 D 5 0.5 t\n'

function prepared(qrels = QRELS, aux = AUX) {
  const q = parseQrels(Buffer.from(qrels)).value.queries.get('1')!
  const a = parseQrels(Buffer.from(aux)).value.queries.get('1')!
  const r = parseRun(Buffer.from(RUN)).value.queries.get('1')!
  const conv = { ...trecEvalV10, ordering: 'score-docid-asc' as const }
  const p = prepareQuery(q, r, conv, { docs: true, aux: a })
  if (!p.ok) throw new Error('not prepared')
  return p.ranking
}
const q = prepared()
const value = (name: string, ranking = q) => {
  const m: Measure = parseMeasure(name)[0]!
  return m.spec.compute(
    ranking,
    { at: m.at, values: measureParams(m) },
    { conventions: trecEvalV10 },
  )
}

describe('RBP with averaged ties (trectools get_rbp)', () => {
  it('binary, raw gains, and the tie rule it replaces', () => {
    // A .5 + C .1875; broken ties give C its own .125.
    expect(value("RBP(p=0.5,rel=1,ties='average')")).toBe(0.6875)
    expect(value('RBP(p=0.5,rel=1)')).toBe(0.625)
    // Raw grades: 2·.5 + 1·.1875.
    expect(value("RBP(p=0.5,gains='raw',ties='average')")).toBe(1.1875)
    expect(value("RBP(p=0.5,gains='raw')")).toBe(1.125)
  })
  it("the residual: unjudged X's weight plus p^1000", () => {
    expect(value("RBP_resid(p=0.5,rel=1,ties='average')")).toBe(0.0625 + 0.5 ** 1000)
  })
  it('gains=raw is refused with rel or max_rel', () => {
    expect(() => parseMeasure("RBP(gains='raw',rel=1)")).toThrow(/gains or rel/)
  })
})

describe('uRBP and alpha-uRBP (trectools get_urbp, get_alpha_urbp)', () => {
  it('uRBP: weight times understandability times the factor, relevant docs only', () => {
    // A .5·80·.01 + C .1875·50·.01
    expect(value('uRBP(p=0.5,factor=0.01)')).toBeCloseTo(0.4 + 0.09375, 15)
    // Without averaging C keeps .125.
    expect(value("uRBP(p=0.5,factor=0.01,ties='break')")).toBeCloseTo(0.4 + 0.0625, 15)
  })
  it('alpha-uRBP: u mapped to 100·exp(-(u-goal)^2/(2 sd^2))', () => {
    // A: 100·exp(-(30/20)²/2) = 100·e^-1.125; C: u = goal, 100.
    const want = 0.5 * 100 * Math.exp(-1.125) * 0.01 + 0.1875 * 100 * 0.01
    expect(value('alpha_uRBP(p=0.5,goal=50,sd=20,factor=0.01)')).toBeCloseTo(want, 15)
    expect(() => parseMeasure('alpha_uRBP(p=0.5)')).toThrow(/goal=…, sd=…/)
  })
  it('without aux values: 0', () => {
    expect(value('uRBP(p=0.5)', prepared(QRELS, '2 0 A 1\n'))).toBe(0)
  })
})

describe('uBpref (trectools get_ubpref)', () => {
  // R = 2 (A, C), N = 2 (B, D), min(R, N) = 2. Judged docs with a value: A, C, B (X unjudged, D none).
  it('ties by docno descending: A, C, B', () => {
    // A: (1 - 0/2)·.8/2 = .4; C (before B): (1 - 0/2)·.5/2 = .25.
    expect(value('uBpref(factor=0.01)')).toBeCloseTo(0.65, 15)
    expect(ubpref(q, 1, 0.01)).toBeCloseTo(0.65, 15)
  })
  it("ties='break' keeps the ranking (B before C)", () => {
    // C has one non-relevant doc above it: (1 - 1/2)·.5/2 = .125.
    expect(value("uBpref(factor=0.01,ties='break')")).toBeCloseTo(0.525, 15)
  })
  it('no judged non-relevant doc: 0 (trectools sums 0/0 terms as nothing)', () => {
    expect(value('uBpref(factor=0.01)', prepared('1 0 A 2\n1 0 C 1\n'))).toBe(0)
  })
})

/*
 * Tie averaging derived from McSherry & Najork (ECIR 2008) for P@k, DCG@k and nDCG@k, by hand on the same
 * ranking A(2) B(0) C(1) X D(0), B and C tied at ranks 2-3.
 */
describe("P@k, DCG@k and nDCG@k with ties='average'", () => {
  it('P@2: C gets half a hit (its run straddles the cutoff); P@3 unchanged', () => {
    expect(value("P(ties='average')@2")).toBe(0.75)
    expect(value('P@2')).toBe(0.5)
    expect(value("P(ties='average')@3")).toBe(2 / 3)
  })
  it('DCG: B and C share the mean of their discounts (0 past k)', () => {
    // @2: 2·1 + 1·(1/log2 3 + 0)/2; whole ranking: 2 + (1/log2 3 + 1/2)/2.
    expect(value("DCG(ties='average')@2")).toBeCloseTo(2 + 1 / Math.log2(3) / 2, 15)
    expect(value('DCG@2')).toBe(2)
    expect(value("DCG(ties='average')")).toBeCloseTo(2 + (1 / Math.log2(3) + 0.5) / 2, 15)
    expect(() => parseMeasure("DCG(ties='average',judged_only=True)")).toThrow(/not both/)
  })
  it('nDCG: the averaged DCG over the usual ideal (grades 2, 1)', () => {
    // IDCG@2 = 2 + 1/log2 3; IDCG (whole) the same.
    const idcg = 2 + 1 / Math.log2(3)
    expect(value("nDCG(ties='average')@2")).toBeCloseTo((2 + 1 / Math.log2(3) / 2) / idcg, 15)
    expect(value("nDCG(ties='average')")).toBeCloseTo((2 + (1 / Math.log2(3) + 0.5) / 2) / idcg, 15)
    expect(value('nDCG@2')).toBeCloseTo(2 / idcg, 15)
  })
})
