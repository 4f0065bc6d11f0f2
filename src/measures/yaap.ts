import { type JudgedRanking, numRelAt } from '../rank/judged-ranking.js'
import { defineMeasure, single } from './measure.js'
import { REL, relOf } from './params.js'

/**
 * Yet another average precision (trec_eval `yaap` since 9.0.3, Robertson's smoothed AP):
 *   S = Σ_{relevant retrieved d at rank r} (relevant in top r) / r   (AP's sum, before / R)
 *   yaap = ln((1 + S) / (1 + R − S))
 * Monotone in AP for one query, and finite where AP is 0 or 1: 0 for an empty ranking with
 * R = 0, −ln(1 + R) with nothing relevant retrieved, ln(1 + R) for a perfect ranking.
 * Reference: trec_eval 10 `m_yaap.c` (usnistgov/trec_eval @ f425365); S. Robertson, On
 * smoothing average precision, ECIR 2012, LNCS 7224, pp. 158–169.
 */
export function yaap(q: JudgedRanking, rel = q.relevanceLevel): number {
  let relSoFar = 0
  let sum = 0
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! >= rel) {
      relSoFar++
      sum += relSoFar / (i + 1)
    }
  }
  return Math.log((1 + sum) / (1 + numRelAt(q, rel) - sum))
}

/** yaap (trec_eval `yaap`). */
export const yaapMeasure = defineMeasure({
  name: 'YAAP',
  aliases: ['yaap'],
  summary: 'Yet another average precision: log-odds-like smoothed AP (trec_eval yaap).',
  formula: 'yaap = ln((1 + S) / (1 + R - S)), S = sum over relevant retrieved r of P@rank(r)',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  valueRange: 'real',
  trecEval: [{ name: 'yaap', compute: single((q) => yaap(q)) }],
  compute: (q, p, ctx) => yaap(q, relOf(p.values.rel, ctx)),
})
