/**
 * Hand-computed values of the families that were once the drop-in's alone, through their
 * ir_measures-style names (the drop-in-vs-evaluate conformance test checks the trec_eval names).
 */
import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { measureParams, parseMeasure } from './name.js'
import { ranking } from './test-helpers.js'

const value = (name: string, q: ReturnType<typeof ranking>) => {
  const m = parseMeasure(name)[0]!
  return m.spec.compute(q, { at: m.at, values: measureParams(m) }, { conventions: trecEvalV10 })
}
// Ranking A: grades [2, -1, 0, 1] and one unretrieved relevant doc: R = 3, n = 4.
const A = ranking([2, -1, 0, 1], [1])

describe('families of the trec_eval-only measures, on ranking A', () => {
  it('relative precision: P(relative=True)@k = hits / min(k, R); SetP(relative=True)', () => {
    expect(value('P(relative=True)@2', A)).toBe(0.5)
    expect(value('P(relative=True)@5', A)).toBeCloseTo(2 / 3, 15)
    expect(value('SetP(relative=True)', A)).toBeCloseTo(2 / 3, 15)
    expect(value('SetP(relative=True)', ranking([1], [1, 1]))).toBe(1)
    expect(value('SetP(relative=True)', ranking([0]))).toBe(0)
    // ir_measures' SetRelP is the same measure, printed canonically
    expect(parseMeasure('SetRelP')[0]!.name).toBe('SetP(relative=True)')
    expect(parseMeasure('SetRelP(rel=2)')[0]!.name).toBe('SetP(rel=2,relative=True)')
    expect(() => parseMeasure('SetRelP(relative=False)')).toThrow(/relative once/)
  })
  it('Rprec(mult=x): P at trunc(x R + 0.9), num_rel_ret / c past the end', () => {
    expect(value('Rprec(mult=2)', A)).toBeCloseTo(2 / 6, 15) // c = 6 > n = 4
    expect(value('Rprec(mult=0.4)', A)).toBe(0.5) // c = trunc(1.2 + 0.9) = 2: P@2
    expect(value('Rprec(mult=1)', A)).toBeCloseTo(1 / 3, 15) // Rprec itself
  })
  it('IPrecAvg: (2 x 1 + 3 x 1 + 4 x 0.5 + 2 x 0) / 11', () => {
    expect(value('IPrecAvg', A)).toBeCloseTo(7 / 11, 15)
    expect(value('IPrecAvg', ranking([], [1]))).toBe(0)
  })
  it('binG: (1/log2(2) + 1/log2(4)) / 3', () => {
    expect(value('binG', A)).toBeCloseTo(0.5, 15)
    expect(value('binG(rel=2)', A)).toBe(1)
  })
  it('G, nDCG_rel, RnDCG: 1 for a perfect ranking; 1/log2(3), 1/log2(3), 0 for [0, 1]', () => {
    const perfect = ranking([1])
    const late = ranking([0, 1])
    expect(value('G', perfect)).toBe(1)
    expect(value('nDCG_rel', perfect)).toBe(1)
    expect(value('RnDCG', perfect)).toBe(1)
    expect(value('G', late)).toBeCloseTo(1 / Math.log2(3), 15)
    expect(value('nDCG_rel', late)).toBeCloseTo(1 / Math.log2(3), 15)
    expect(value('RnDCG', late)).toBe(0)
    // A gains map that restates the grades changes nothing; one that does changes G.
    expect(value('G(gains={1:1,2:2})', A)).toBe(value('G', A))
    expect(value('G(gains={1:5})', late)).toBeCloseTo(1 / Math.log2(3), 15)
  })
  it('Utility: a rel_ret + b nonrel_ret + c rel_not_ret + d (N + rel_ret - ret - R)', () => {
    expect(value('Utility', A)).toBe(0) // 2 - 2
    expect(value('Utility(c=1)', A)).toBe(1) // + (3 - 2)
    expect(value('Utility(a=3,b=-2)', A)).toBe(2)
    expect(value('Utility(N=10,d=1)', A)).toBe(5) // 0 + (10 + 2 - 4 - 3)
  })
  it('GMBpref computes bpref per query (1 + 0) / 3, averaged geometrically', () => {
    expect(value('GMBpref', A)).toBeCloseTo(1 / 3, 15)
    expect(parseMeasure('gm_bpref')[0]!.spec.aggregate).toBe('gmean')
  })
  it('NumQ is 1 per query, summed', () => {
    expect(value('NumQ', A)).toBe(1)
    expect(parseMeasure('NumQ')[0]!.spec.aggregate).toBe('sum')
  })
})
