import { numRelAt, numRelRetAt, type JudgedRanking } from '../rank/judged-ranking.js'

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
export function averagePrecisionAt(q: JudgedRanking, cutoffs: readonly number[], rel = q.relevanceLevel): number[] {
  const R = numRelAt(q, rel)
  if (R === 0) return cutoffs.map(() => 0)
  // Sums of P@r over relevant ranks r, taken at each cutoff in ascending order, in rank order.
  // Below level 0, unjudged docs count as relevant in rank loops (trec_eval): no early stop.
  const total = rel >= 0 ? numRelRetAt(q, rel) : Infinity
  const g = q.grades
  const out = new Array<number>(cutoffs.length)
  let relSoFar = 0
  let sum = 0
  let i = 0
  for (const [k, at] of cutoffs.map((k, j) => [k, j] as const).sort((a, b) => a[0] - b[0])) {
    const limit = Math.min(k, q.numRet)
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
