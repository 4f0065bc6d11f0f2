import { type JudgedRanking, numRelAt, numRelRetAt } from '../rank/judged-ranking.js'
import { ascendingOrder, zeros } from './cutoffs.js'
import { defineMeasure, single, teValues } from './measure.js'
import { cutOf, JUDGED_ONLY, judgedView, REL, relOf } from './params.js'
import { TREC_EVAL_CUTOFFS } from './trec-eval-defaults.js'

/** Lower bound used before taking logs for geometric means (trec_eval `MIN_GEO_MEAN`). */
export const MIN_GEO_MEAN = 0.00001

/**
 * Average precision:  AP = (1/R) Σ_{r : grade(d_r) ≥ rel} (relevant in top r) / r
 *
 * Divides by R, all relevant judged docs, so unretrieved relevant docs count 0 (trec_eval `map`).
 * 0 when nothing relevant was retrieved.
 */
export function averagePrecision(q: JudgedRanking, rel = q.relevanceLevel): number {
  let relSoFar = 0
  let sum = 0
  const g = q.grades
  // Below level 0, unjudged docs count as relevant in rank loops (trec_eval): no early stop.
  const total = rel >= 0 ? numRelRetAt(q, rel) : Infinity
  for (let i = 0; i < q.numRet && relSoFar < total; i++) {
    if (g[i]! >= rel) {
      relSoFar++
      sum += relSoFar / (i + 1)
    }
  }
  return relSoFar ? sum / numRelAt(q, rel) : 0
}

/**
 * AP cut at k:  AP@k = (1/R) Σ_{r ≤ k, relevant} P@r, still divided by R, not min(R, k)
 * (trec_eval `map_cut.k`). 0 when R = 0.
 */
export function averagePrecisionAt(
  q: JudgedRanking,
  cutoffs: readonly number[],
  rel = q.relevanceLevel,
): number[] {
  const R = numRelAt(q, rel)
  if (R === 0) return cutoffs.map(() => 0)
  // Sums of P@r over relevant ranks r, taken at each cutoff in ascending order, in rank order.
  // Below level 0, unjudged docs count as relevant in rank loops (trec_eval): no early stop.
  const total = rel >= 0 ? numRelRetAt(q, rel) : Infinity
  const g = q.grades
  const out = zeros(cutoffs.length)
  let relSoFar = 0
  let sum = 0
  let i = 0
  for (const at of ascendingOrder(cutoffs)) {
    const limit = Math.min(cutoffs[at]!, q.numRet)
    for (; i < limit && relSoFar < total; i++) {
      if (g[i]! >= rel) {
        relSoFar++
        sum += relSoFar / (i + 1)
      }
    }
    out[at] = sum / R
  }
  return out
}

/**
 * AP over the relevant docs retrieved (cwl_eval's AP):  (1/n_k) Σ_{r ≤ k, relevant} P@r,
 * n_k = relevant docs in the top k; 0 when there is none.
 */
export function averagePrecisionRetrieved(q: JudgedRanking, rel: number, k = Infinity): number {
  let relSoFar = 0
  let sum = 0
  const n = Math.min(q.numRet, k)
  for (let i = 0; i < n; i++) {
    if (q.grades[i]! >= rel) {
      relSoFar++
      sum += relSoFar / (i + 1)
    }
  }
  return relSoFar ? sum / relSoFar : 0
}

/** log(max(AP, 0.00001)): the per-query value behind the geometric mean `gm_map`. */
export function logAveragePrecision(q: JudgedRanking, rel = q.relevanceLevel): number {
  return Math.log(Math.max(averagePrecision(q, rel), MIN_GEO_MEAN))
}

/**
 * Set MAP:  set_map = num_rel_ret² / (num_ret · R) (set precision × set recall); 0 when either
 * count is 0.
 */
export function setMap(q: JudgedRanking): number {
  if (q.numRet && q.numRel) return (q.numRelRet * q.numRelRet) / (q.numRet * q.numRel)
  return 0
}

/** Average precision (ir_measures `AP`, `AP@k`; trec_eval `map`, `map_cut.k`). */
export const averagePrecisionMeasure = defineMeasure({
  name: 'AP',
  aliases: ['MAP'],
  summary: 'Average precision (cut at k when given), divided by all relevant documents R.',
  formula: 'AP@k = (1/R) * sum over relevant d at rank r <= k of P@r',
  params: {
    rel: REL,
    judged_only: JUDGED_ONLY,
    denominator: {
      type: 'string',
      choices: ['relevant', 'retrieved'],
      default: 'relevant',
      doc: "what the sum of P@r is divided by: all relevant docs R (trec_eval), or the relevant docs retrieved in the top k (cwl_eval's AP)",
    },
  },
  at: 'cutoff',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [
    { name: 'map', compute: single((q) => averagePrecision(q)) },
    {
      name: 'map_cut',
      params: 'long-cutoffs',
      defaults: TREC_EVAL_CUTOFFS,
      compute: (q, p) => averagePrecisionAt(q, teValues(p)),
    },
  ],
  compute: (q, p, ctx) => {
    const v = judgedView(q, p.values.judged_only)
    const rel = relOf(p.values.rel, ctx)
    if (p.values.denominator === 'retrieved') return averagePrecisionRetrieved(v, rel, cutOf(p.at))
    return p.at === undefined ? averagePrecision(v, rel) : averagePrecisionAt(v, [p.at], rel)[0]!
  },
})

/** Geometric mean AP (ir_measures `GMAP`, trec_eval `gm_map`). */
export const gmapMeasure = defineMeasure({
  name: 'GMAP',
  aliases: ['gm_map'],
  summary: 'Geometric mean of average precision over queries (per-query AP floored at 0.00001).',
  formula: 'GMAP = exp(mean over queries of log(max(AP, 0.00001)))',
  params: { rel: REL },
  at: 'none',
  atRequired: false,
  aggregate: 'gmean',
  needsRelevant: true,
  trecEval: [
    {
      name: 'gm_map',
      perQuery: 'none',
      summary: 'gm',
      compute: single((q) => logAveragePrecision(q)),
    },
  ],
  compute: (q, p, ctx) => averagePrecision(q, relOf(p.values.rel, ctx)),
})

/** Set AP (ir_measures `SetAP`, trec_eval `set_map`). */
export const setMapMeasure = defineMeasure({
  name: 'SetAP',
  aliases: [],
  summary: 'Set precision times set recall (trec_eval set_map).',
  formula: 'SetAP = num_rel_ret^2 / (num_ret * R)',
  params: {},
  at: 'none',
  atRequired: false,
  aggregate: 'mean',
  needsRelevant: true,
  trecEval: [{ name: 'set_map', compute: single(setMap) }],
  compute: (q) => setMap(q),
})
