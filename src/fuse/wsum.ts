/**
 * Weighted sum (linear combination) of the (normalised) scores:
 *
 *   WSUM(d) = Σ_{r ∈ R(d)} w_r · s_r(d)
 *
 * with one weight w_r per input run (in input order) and R(d) the runs that retrieved d (absent
 * runs add nothing). With every w_r = 1 it is CombSUM.
 */
import { contributions, stableSum } from './contributions.js'
import type { QueryLists } from './types.js'

/** Weighted-sum scores of every document of one query. */
export function weightedSumFusion(
  lists: QueryLists,
  weights: readonly number[],
): Map<string, number> {
  const out = new Map<string, number>()
  for (const [doc, cs] of contributions(lists))
    out.set(doc, stableSum(cs.map((c) => weights[c.run]! * c.score)))
  return out
}
