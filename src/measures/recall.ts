import { numRelAt, numRelRetAt, type JudgedRanking } from '../rank/judged-ranking.js'
import { relevantInTop } from './cutoffs.js'

/**
 * Recall at k:  R@k = |{d in top k : grade(d) ≥ rel}| / R; 0 when R = 0 (trec_eval `recall.k`).
 */
export function recall(q: JudgedRanking, cutoffs: readonly number[], rel = q.relevanceLevel): number[] {
  const R = numRelAt(q, rel)
  if (R === 0) return cutoffs.map(() => 0)
  const hits = relevantInTop(q, cutoffs, rel)
  return hits.map((h) => h / R)
}

/** Set recall:  set_recall = num_rel_ret / R; 0 when R = 0. */
export function setRecall(q: JudgedRanking, rel = q.relevanceLevel): number {
  const R = numRelAt(q, rel)
  return R === 0 ? 0 : numRelRetAt(q, rel) / R
}

/**
 * Completeness at k:  1 when every relevant doc (grade ≥ rel) is in the top k, else 0.
 * A query with no relevant doc is complete (1).
 */
export function completeness(q: JudgedRanking, cutoffs: readonly number[], rel = q.relevanceLevel): number[] {
  const R = numRelAt(q, rel)
  return relevantInTop(q, cutoffs, rel).map((h) => (h >= R ? 1 : 0))
}
