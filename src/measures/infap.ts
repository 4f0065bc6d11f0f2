import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import { type JudgedRanking, numRelAt, relevantEnd } from '../rank/judged-ranking.js'
import { defineMeasure, single } from './measure.js'
import { REL, relOf } from './params.js'

const EPSILON = 0.00001

/**
 * Inferred AP (trec_eval `infAP`). Walking the ranking and skipping docs absent from the qrels,
 * a relevant doc at 0-based position j > 0 adds
 *   1/(j+1) + (j/(j+1)) · ((r + n + u)/j) · ((r + ε)/(r + n + 2ε))
 * with r, n, u the relevant, judged non-relevant and pooled-unjudged docs above it, ε = 1e-5
 * (it adds 1 at j = 0). The sum is divided by R, the judged docs with grade ≥ rel.
 * Reference: Yilmaz & Aslam, Estimating Average Precision with Incomplete and Imperfect
 * Judgments, CIKM 2006.
 */
export function infAP(q: JudgedRanking, rel = q.relevanceLevel): number {
  let nonrel = 0
  let relSoFar = 0
  let unjudged = 0
  let sum = 0
  const g = q.grades
  // Only relevant docs add to the sum: none lies past relevantEnd.
  for (let j = 0, end = relevantEnd(q, rel); j < end; j++) {
    const v = g[j]!
    if (v === NOT_POOLED) continue
    if (v === UNJUDGED) {
      unjudged++
      continue
    }
    if (v >= 0 && v < rel) {
      nonrel++
      continue
    }
    relSoFar++
    if (j === 0) sum += 1
    else {
      const fj = j
      sum +=
        1 / (fj + 1) +
        (fj / (fj + 1)) *
          ((relSoFar - 1 + nonrel + unjudged) / fj) *
          ((relSoFar - 1 + EPSILON) / (relSoFar - 1 + nonrel + 2 * EPSILON))
    }
  }
  const R = numRelAt(q, rel)
  return R ? sum / R : sum
}

/** Inferred AP (ir_measures `infAP`, trec_eval `infAP`). */
export const infAPMeasure = defineMeasure({
  name: 'infAP',
  aliases: ['InfAP'],
  summary: 'Inferred AP for sampled judgments (Yilmaz & Aslam, CIKM 2006).',
  formula: 'see src/measures/infap.ts',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'infAP', compute: single((q) => infAP(q)) }],
  compute: (q, p, ctx) => infAP(q, relOf(p.values.rel, ctx)),
})
