/**
 * The scans that stop at `positiveEnd` (past the last ranked doc with a positive grade) give the
 * same bits as the full scans, on random rankings: every grade from -2 (negative judgment) to 3,
 * relevant docs anywhere or nowhere, unretrieved judged docs, relevance levels 0 to 3, gain
 * tables that reward grade 0 or go negative (then the scan must not stop early), and the bound
 * given exactly or as any larger upper bound (a view that drops docs keeps the old one).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import type { JudgedRanking } from '../rank/judged-ranking.js'
import { bpref } from './bpref.js'
import { binG, gainG } from './g.js'
import type { GainPair } from './gains.js'
import { infAP } from './infap.js'
import { interpolatedPrecision } from './interpolated-precision.js'
import { ndcgFull } from './ndcg.js'
import { ndcgRel, rNdcg } from './ndcg-experimental.js'
import { rPrecisionMult } from './precision.js'
import { rbp } from './rbp.js'
import { TREC_EVAL_RECALL_POINTS, TREC_EVAL_RPREC_MULTIPLES } from './trec-eval-defaults.js'

/** A ranking of `grades` at relevance level `level`, with `extra[g]` unretrieved docs of grade g. */
function ranking(grades: number[], extra: number[], level: number, slack: number | null) {
  const relLevels = extra.slice()
  for (const g of grades) if (g >= 0) relLevels[g] = (relLevels[g] ?? 0) + 1
  let numRelLevels = 0
  let numRel = 0
  for (let g = 0; g < relLevels.length; g++) {
    if (relLevels[g]) numRelLevels = g + 1
    if (g >= level) numRel += relLevels[g] ?? 0
  }
  let last = 0
  grades.forEach((g, i) => {
    if (g > 0) last = i + 1
  })
  const base = {
    queryId: 'q',
    grades: Int32Array.from(grades),
    numRet: grades.length,
    relLevels,
    numRelLevels,
    relevanceLevel: level,
    numRel,
    numRelRet: grades.filter((g) => g >= level).length,
    numNonpool: grades.filter((g) => g === NOT_POOLED).length,
    numUnjudgedInPool: grades.filter((g) => g === UNJUDGED).length,
  } satisfies JudgedRanking
  const bounded: JudgedRanking = { ...base, positiveEnd: last + (slack ?? 0) }
  return { full: base as JudgedRanking, bounded }
}

const arbCase = fc.record({
  // Mostly zeros and unjudged docs, as in real runs, with a few relevant ones.
  grades: fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(0, NOT_POOLED, UNJUDGED) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
    ),
    { maxLength: 40 },
  ),
  extra: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
  level: fc.integer({ min: 0, max: 3 }),
  slack: fc.option(fc.integer({ min: 0, max: 50 })),
  pairs: fc.array(
    fc.record({
      name: fc.constantFrom('0', '1', '2', '3', 'p'),
      value: fc.constantFrom(-2, 0, 0.5, 1, 3, 7),
    }),
    { maxLength: 3 },
  ),
})

/** Every value the bounded scans compute, as a flat list. */
function values(q: JudgedRanking, pairs: GainPair[]): number[] {
  const out = [
    rbp(q, 0.9, pairs),
    rbp(q, 0.5),
    gainG(q, pairs),
    gainG(q),
    ndcgRel(q, pairs),
    ndcgRel(q),
    rNdcg(q, pairs),
    rNdcg(q),
    ndcgFull(q, pairs).ndcg,
    ndcgFull(q).dcg,
    ndcgFull(q).idealDcg,
    ...interpolatedPrecision(q, TREC_EVAL_RECALL_POINTS),
  ]
  for (let rel = -1; rel <= 4; rel++)
    out.push(
      binG(q, rel),
      bpref(q, rel),
      infAP(q, rel),
      ...rPrecisionMult(q, TREC_EVAL_RPREC_MULTIPLES, rel),
      ...rPrecisionMult(q, [0.5, 3, 7.5, 20], rel),
    )
  return out
}

describe('scans that stop at positiveEnd', () => {
  it('give the same bits as full scans', () => {
    fc.assert(
      fc.property(arbCase, ({ grades, extra, level, slack, pairs }) => {
        const { full, bounded } = ranking(grades, extra, level, slack)
        const a = values(full, pairs)
        const b = values(bounded, pairs)
        expect(b.length).toBe(a.length)
        a.forEach((v, i) => expect(Object.is(v, b[i]), `value ${i}: ${v} vs ${b[i]}`).toBe(true))
      }),
      { numRuns: 3000 },
    )
  })
  it('stop early where they may: a relevant doc at rank 2 of 1,000', () => {
    const grades = new Array<number>(1000).fill(0)
    grades[1] = 1
    const { bounded } = ranking(grades, [0, 0, 0, 0], 1, 0)
    expect(bounded.positiveEnd).toBe(2)
    // Hand-computed: RBP = 0.1 * 0.9; nDCG = (1/log2 3) / 1; binG = 1/log2(2 + 1) / 1.
    expect(rbp(bounded)).toBeCloseTo(0.09, 15)
    expect(ndcgFull(bounded).ndcg).toBeCloseTo(1 / Math.log2(3), 15)
    expect(binG(bounded)).toBeCloseTo(1 / Math.log2(3), 15)
  })
})
