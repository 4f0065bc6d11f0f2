import { NOT_POOLED, UNJUDGED } from '../model/types.js'
import { type JudgedRanking, numRelAt, relevantEnd } from '../rank/judged-ranking.js'
import { MIN_GEO_MEAN } from './average-precision.js'
import { defineMeasure, single } from './measure.js'
import { REL, relOf } from './params.js'

/**
 * Binary preference:  bpref = (1/R) Σ_{relevant retrieved r} (1 − min(n_r, R) / min(N, R))
 *
 * R = judged docs with grade ≥ rel, n_r = judged non-relevant docs ranked above r, N = judged
 * non-relevant docs of the query
 * (grade in [0, rel)). Docs absent from the qrels or with negative judgments are skipped.
 * A relevant doc with no judged non-relevant doc above it adds 1.
 * Reference: Buckley & Voorhees, Retrieval Evaluation with Incomplete Information, SIGIR 2004.
 */
export function bpref(q: JudgedRanking, rel = q.relevanceLevel): number {
  let numNonrel = 0
  for (let j = 0; j < rel && j < q.relLevels.length; j++) numNonrel += q.relLevels[j]!
  const R = numRelAt(q, rel)
  let nonrelSoFar = 0
  let sum = 0
  const g = q.grades
  // Only relevant docs add to the sum: none lies past relevantEnd.
  for (let j = 0, end = relevantEnd(q, rel); j < end; j++) {
    const v = g[j]!
    if (v === NOT_POOLED || v === UNJUDGED) continue
    if (v >= 0 && v < rel) nonrelSoFar++
    else if (nonrelSoFar > 0) sum += 1 - Math.min(nonrelSoFar, R) / Math.min(numNonrel, R)
    else sum += 1
  }
  return R ? sum / R : sum
}

/** log(max(bpref, 0.00001)): the per-query value behind the geometric mean `gm_bpref`. */
export function logBpref(q: JudgedRanking, rel = q.relevanceLevel): number {
  return Math.log(Math.max(bpref(q, rel), MIN_GEO_MEAN))
}

/** bpref (ir_measures `Bpref`, trec_eval `bpref`). */
export const bprefMeasure = defineMeasure({
  name: 'Bpref',
  aliases: ['BPref', 'bpref'],
  summary:
    'Binary preference: how often judged relevant documents rank above judged non-relevant ones.',
  formula: 'bpref = (1/R) * sum over relevant retrieved r of (1 - min(n_r, R)/min(N, R))',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'bpref', compute: single((q) => bpref(q)) }],
  compute: (q, p, ctx) => bpref(q, relOf(p.values.rel, ctx)),
})

/**
 * Geometric mean bpref (trec_eval `gm_bpref`): exp(mean over queries of log(max(bpref, 0.00001))).
 * Reference: trec_eval 10 `m_gm_bpref.c`.
 */
export const gmBprefMeasure = defineMeasure({
  name: 'GMBpref',
  aliases: ['gm_bpref'],
  summary: 'Geometric mean of bpref over queries (per-query bpref floored at 0.00001).',
  formula: 'GMBpref = exp(mean over queries of log(max(bpref, 0.00001)))',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'gmean',
  needsRelevant: true,
  trecEval: [
    { name: 'gm_bpref', perQuery: 'none', summary: 'gm', compute: single((q) => logBpref(q)) },
  ],
  compute: (q, p, ctx) => bpref(q, relOf(p.values.rel, ctx)),
})
