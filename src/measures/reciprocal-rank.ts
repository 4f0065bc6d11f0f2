import type { JudgedRanking } from '../rank/judged-ranking.js'

/**
 * Reciprocal rank:  RR@k = 1 / (rank of the first doc with grade ≥ rel), 0 when none is in the
 * top k (no cutoff by default: trec_eval `recip_rank`).
 */
export function reciprocalRank(q: JudgedRanking, rel = q.relevanceLevel, cutoff = Infinity): number {
  const n = Math.min(q.numRet, cutoff)
  for (let i = 0; i < n; i++) if (q.grades[i]! >= rel) return 1 / (i + 1)
  return 0
}

/**
 * Success at k:  1 when a doc with grade ≥ rel is in the top k, else 0 (trec_eval `success.k`).
 */
export function success(q: JudgedRanking, cutoffs: readonly number[], rel = q.relevanceLevel): number[] {
  let first = -1
  for (let i = 0; i < q.numRet; i++) {
    if (q.grades[i]! >= rel) {
      first = i
      break
    }
  }
  return cutoffs.map((k) => (first >= 0 && first < k ? 1 : 0))
}
