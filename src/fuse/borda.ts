/**
 * Borda count (Aslam and Montague, SIGIR 2001): each run gives a document points by position,
 *
 *   Borda(d) = Σ_{r ∈ R(d)} (N − rank_r(d) + 1)
 *
 * with N the number of distinct documents retrieved for the query by any run, rank_r(d) the
 * 1-based position in run r, and R(d) the runs that retrieved d: a run that did not retrieve d
 * gives it 0 points. Scores are never read, so no normalisation applies.
 */
import { contributions, stableSum } from './contributions.js'
import type { QueryLists } from './types.js'

/** Borda scores of every document of one query. */
export function bordaFusion(lists: QueryLists): Map<string, number> {
  const all = contributions(lists)
  const n = all.size
  const out = new Map<string, number>()
  for (const [doc, cs] of all) out.set(doc, stableSum(cs.map((c) => n - c.rank + 1)))
  return out
}
