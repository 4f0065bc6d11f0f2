import { type JudgedRanking, numRelRetAt } from '../rank/judged-ranking.js'

/**
 * For each cutoff k (any order), the number of docs with grade ≥ `rel` among the top
 * min(k, numRet). One pass over the ranking that stops once every relevant retrieved doc has
 * been seen, so sparse judgments (one relevant doc in a thousand) cost little.
 */
export function relevantInTop(q: JudgedRanking, cutoffs: readonly number[], rel: number): number[] {
  // Below level 0, unjudged docs count as relevant in rank loops (trec_eval): no early stop.
  const total = rel >= 0 ? numRelRetAt(q, rel) : Infinity
  const g = q.grades
  const order = cutoffs.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0])
  const out = new Array<number>(cutoffs.length)
  let seen = 0
  let i = 0
  for (const [k, at] of order) {
    const limit = Math.min(k, q.numRet)
    while (i < limit && seen < total) {
      if (g[i]! >= rel) seen++
      i++
    }
    out[at] = seen
  }
  return out
}
